package dev.berth.manager.metrics;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.cohort;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static dev.berth.manager.testing.Fixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.MetricsOptions;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md lists every series of Kueue v0.16 (the list generated from Kueue's
 * pkg/metrics/metrics.go, kept in test resources) with its labels, and what it says is true: each
 * series marked served is in a scrape with exactly Kueue's labels (but replica_role), each other one
 * is absent. The scrape follows admissions, a preemption and a finish, with every optional series on.
 */
class KueueSeriesCoverageTest {
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static final String SECTION = "### Every series of Kueue v0.16";
    private static final Pattern ROW = Pattern.compile("^\\| `(kueue_\\w+)` \\| (\\w+) \\| ([^|]*) \\| ([^|]+) \\|$");

    record Series(String name, String type, List<String> labels) {}

    record DocRow(String type, List<String> labels, String status) {}

    @Test
    void theDocsListEverySeriesOfKueueWithItsTypeAndLabels() throws IOException {
        Map<String, Series> kueue = kueueSeries();
        Map<String, DocRow> docs = documented();
        assertThat(kueue).hasSize(45);
        assertThat(docs.keySet()).containsExactlyInAnyOrderElementsOf(kueue.keySet());
        for (Series series : kueue.values()) {
            DocRow row = docs.get(series.name());
            assertThat(row.type()).as(series.name()).isEqualTo(series.type());
            List<String> expected = new ArrayList<>(series.labels());
            expected.remove("replica_role");
            assertThat(row.labels()).as(series.name()).isEqualTo(expected);
        }
    }

    @Test
    void whatTheDocsCallServedIsScrapedWithKueuesLabelsAndTheRestIsAbsent() throws IOException {
        PrometheusText scrape = scrapeAfterActivity();
        Map<String, Series> kueue = kueueSeries();
        for (Map.Entry<String, DocRow> row : documented().entrySet()) {
            Series series = kueue.get(row.getKey());
            Set<Set<String>> labelSets = labelSetsOf(scrape, series);
            if (row.getValue().status().startsWith("served")) {
                Set<String> expected = new TreeSet<>(series.labels());
                expected.remove("replica_role");
                assertThat(labelSets).as(series.name() + " is documented as served").isNotEmpty();
                assertThat(labelSets).as(series.name() + "'s labels").containsOnly(expected);
            } else {
                assertThat(labelSets).as(series.name() + " is documented as not served").isEmpty();
            }
        }
    }

    /** The label names of every sample of the series ({@code le} and histogram suffixes set aside). */
    private static Set<Set<String>> labelSetsOf(PrometheusText scrape, Series series) {
        List<String> names = series.type().equals("histogram")
                ? List.of(series.name() + "_bucket", series.name() + "_count", series.name() + "_sum")
                : List.of(series.name());
        Set<Set<String>> sets = new java.util.HashSet<>();
        for (String name : names) {
            for (String key : scrape.family(name).keySet()) {
                Set<String> labels = new TreeSet<>();
                Matcher label = Pattern.compile("([a-z_]+)=\"").matcher(key.substring(key.indexOf('{')));
                while (label.find()) labels.add(label.group(1));
                labels.remove("le");
                sets.add(labels);
            }
        }
        return sets;
    }

    private static PrometheusText scrapeAfterActivity() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        SchedulerOptions options = new SchedulerOptions(true, SchedulerOptions.DEFAULTS.preemptionStrategies(), null);
        AdmissionController controller = new AdmissionController(clock, options, new RecordingSink());
        BerthMetrics metrics = new BerthMetrics(new MetricsOptions(true, true), true);
        controller.setListener(metrics.admissionListener());
        controller.applyResourceFlavor(ResourceFlavor.named("default"));
        controller.applyCohort(cohort("pool", null));
        controller.applyClusterQueue(clusterQueue("team").cohort("pool").preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                .group(flavor("default", quota("cpu", "4"))).build());
        controller.applyClusterQueue(clusterQueue("other").cohort("pool").group(flavor("default", quota("cpu", "0"))).build());
        controller.applyLocalQueue(localQueue("team", "lq", "team"));
        controller.submit(workload("team", "low").priority(0).createdAt(clock.millis()).request("cpu", "4").build(), true, null);
        controller.schedule();
        clock.advance(Duration.ofSeconds(2));
        controller.submit(workload("team", "high").priority(10).priorityClass("high").createdAt(clock.millis()).request("cpu", "4").build(),
                true, null);
        controller.schedule();
        controller.finish(WorkloadKey.of("team", "high"), true, "Succeeded", "done");
        controller.schedule();
        metrics.refresh(controller.queueMetrics(), List.of());
        return new PrometheusText(metrics.scrape());
    }

    private static Map<String, Series> kueueSeries() throws IOException {
        Map<String, Series> series = new LinkedHashMap<>();
        try (InputStream in = KueueSeriesCoverageTest.class.getResourceAsStream("/kueue-v0.16-metrics.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] parts = line.trim().split(" ");
                series.put(parts[0], new Series(parts[0], parts[1], List.of(parts[2].split(","))));
            }
        }
        return series;
    }

    private static Map<String, DocRow> documented() throws IOException {
        List<String> lines = Files.readAllLines(OPERATIONS);
        int start = lines.indexOf(SECTION);
        assertThat(start).as(SECTION + " in docs/operations.md").isNotNegative();
        Map<String, DocRow> rows = new LinkedHashMap<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("#")) break;
            Matcher row = ROW.matcher(line);
            if (!row.matches()) continue;
            List<String> labels = new ArrayList<>();
            Matcher label = Pattern.compile("`(\\w+)`").matcher(row.group(3));
            while (label.find()) labels.add(label.group(1));
            rows.put(row.group(1), new DocRow(row.group(2), labels, row.group(4).trim()));
        }
        return rows;
    }
}
