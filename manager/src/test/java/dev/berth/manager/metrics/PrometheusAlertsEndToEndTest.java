package dev.berth.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ExternalTool;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPrometheus;
import dev.berth.protocol.MetricNames;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes a running manager over loopback and evaluates the shipped alert rules,
 * with only their {@code for:} durations shortened: a queue driven to full use fires
 * KueueQueueFullyUtilized, while KueueAdmissionWaitTimeHigh stays quiet.
 */
@NeedsPrometheus
class PrometheusAlertsEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RULES = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
            .toAbsolutePath().getParent().resolve("deploy/monitoring/berth-alerts.rules.yml");
    private static final Pattern FOR = Pattern.compile("(?m)^(\\s*for:\\s*)\\S+\\s*$");

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore().manifests(Path.of("src", "test", "resources", "metrics-queues"));
    @TempDir
    Path temp;
    private PrometheusProcess prometheus;

    @BeforeEach
    void start() throws Exception {
        Path binary = ExternalTool.require("prometheus", "Install Debian's prometheus package.");
        Path rules = Files.writeString(temp.resolve("rules.yml"), withShortFor(Files.readString(RULES), "2s"));
        prometheus = new PrometheusProcess(binary, temp, "127.0.0.1:" + harness.port(), rules);
    }

    @AfterEach
    void stop() throws Exception {
        if (prometheus != null) prometheus.close();
    }

    /** The rule file with every {@code for:} replaced and nothing else touched. */
    static String withShortFor(String rules, String duration) {
        Matcher matcher = FOR.matcher(rules);
        assertThat(FOR.matcher(rules).results().count()).isEqualTo(2);
        return matcher.replaceAll("$1" + duration);
    }

    @Test
    void aFullyUsedQueueFiresKueueQueueFullyUtilizedAndNothingElse() throws Exception {
        HttpResponse<String> created = send("POST", "/apis/batch/v1/namespaces/ml/jobs", JOB);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            String scrape = send("GET", "/metrics", null).body();
            Double used = new PrometheusText(scrape).value(MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE,
                    "cohort", "", "cluster_queue", "ml-cq", "flavor", "default-cpu", "resource", "cpu");
            return used != null && used == 2.0;
        });

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .failFast("prometheus exited; see its log", () -> !prometheus.alive())
                .until(() -> firing("KueueQueueFullyUtilized"), alerts -> !alerts.isEmpty());

        JsonNode alert = firing("KueueQueueFullyUtilized").get(0);
        assertThat(alert.path("labels").path("cluster_queue").asText()).isEqualTo("ml-cq");
        assertThat(alert.path("labels").path("flavor").asText()).isEqualTo("default-cpu");
        assertThat(alert.path("labels").path("resource").asText()).isEqualTo("cpu");
        assertThat(alert.path("labels").path("severity").asText()).isEqualTo("info");
        assertThat(alerts("KueueAdmissionWaitTimeHigh")).isEmpty();
    }

    private List<JsonNode> firing(String name) throws Exception {
        List<JsonNode> firing = new ArrayList<>();
        for (JsonNode alert : alerts(name)) if ("firing".equals(alert.path("state").asText())) firing.add(alert);
        return firing;
    }

    /** Every alert of that name Prometheus holds, pending or firing. */
    private List<JsonNode> alerts(String name) throws Exception {
        HttpResponse<String> response = prometheus.get("/api/v1/alerts");
        List<JsonNode> alerts = new ArrayList<>();
        if (response == null || response.statusCode() != 200) return alerts;
        for (JsonNode alert : JSON.readTree(response.body()).path("data").path("alerts")) {
            if (name.equals(alert.path("labels").path("alertname").asText())) alerts.add(alert);
        }
        return alerts;
    }

    private HttpResponse<String> send(String method, String path, String yaml) {
        return harness.client().send(method, path, yaml == null ? null : "application/yaml", yaml);
    }

    private static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: fills-the-queue
              namespace: ml
              labels:
                kueue.x-k8s.io/queue-name: ml-queue
            spec:
              parallelism: 1
              completions: 1
              suspend: true
              template:
                spec:
                  containers:
                  - name: work
                    image: registry.k8s.io/e2e-test-images/agnhost:2.53
                    resources:
                      requests:
                        cpu: 2
                  restartPolicy: Never
            """;
}
