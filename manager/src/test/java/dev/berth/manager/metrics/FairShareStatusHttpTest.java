package dev.berth.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.MetricsOptions;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.testing.ExternalTool;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPrometheus;
import dev.berth.protocol.MetricNames;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A manager with fair sharing and Kueue's LocalQueueMetrics on, over loopback: after a borrowing Job
 * is admitted, the ClusterQueue, Cohort and LocalQueue objects read through the API carry Kueue's
 * status fields, and /metrics serves the cohort, weighted-share and LocalQueue series in a format
 * promtool accepts.
 */
@NeedsPrometheus
class FairShareStatusHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore().manifests(Path.of("src", "test", "resources", "fair-share-queues"))
            .schedulerOptions(new SchedulerOptions(true, SchedulerOptions.DEFAULTS.preemptionStrategies(), null).withMetrics(new MetricsOptions(true, true)));

    @Test
    void statusAndMetricsShowTheBorrowersShareAfterAdmission() throws Exception {
        HttpResponse<String> created = send("POST", "/apis/batch/v1/namespaces/ml/jobs", job("borrower", 6));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        JsonNode team = await().atMost(Duration.ofSeconds(10)).until(() -> get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team"),
                cq -> cq.path("status").path("admittedWorkloads").asInt() == 1);
        assertThat(team.path("status").path("fairSharing").path("weightedShare").asLong()).isEqualTo(250);
        assertThat(get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues/lender").path("status").path("fairSharing").path("weightedShare").isIntegralNumber())
                .isTrue();

        JsonNode pool = await().atMost(Duration.ofSeconds(10)).until(() -> get("/apis/kueue.x-k8s.io/v1beta2/cohorts/pool"),
                c -> c.path("status").path("fairSharing").path("weightedShare").asLong() == 250);
        assertThat(pool.path("status").path("fairSharing").path("weightedShare").asLong()).isEqualTo(250);
        assertThat(get("/apis/kueue.x-k8s.io/v1beta2/cohorts/org").path("status").path("fairSharing").path("weightedShare").asLong())
                .isZero();

        JsonNode lq = await().atMost(Duration.ofSeconds(10)).until(() -> get("/apis/kueue.x-k8s.io/v1beta2/namespaces/ml/localqueues/ml-queue"),
                q -> q.path("status").path("admittedWorkloads").asInt() == 1);
        JsonNode status = lq.path("status");
        assertThat(status.path("reservingWorkloads").asInt()).isEqualTo(1);
        assertThat(status.path("pendingWorkloads").asInt()).isZero();
        assertThat(status.path("flavorsUsage")).hasSize(1);
        assertThat(status.path("flavorsUsage").path(0).path("name").asText()).isEqualTo("default-cpu");
        JsonNode cpu = status.path("flavorsUsage").path(0).path("resources").path(0);
        assertThat(cpu.path("name").asText()).isEqualTo("cpu");
        assertThat(cpu.path("total").asText()).isEqualTo("6");
        assertThat(cpu.has("borrowed")).as("Kueue's LocalQueueResourceUsage has no borrowed").isFalse();
        assertThat(status.path("flavorsReservation")).isEqualTo(status.path("flavorsUsage"));
        assertThat(status.path("conditions").path(0).path("reason").asText()).isEqualTo("Ready");

        HttpResponse<String> metrics = send("GET", "/metrics", null);
        PrometheusText scrape = new PrometheusText(metrics.body());
        assertThat(scrape.value(MetricNames.COHORT_WEIGHTED_SHARE, "cohort", "pool")).isEqualTo(250.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE, "cluster_queue", "team", "cohort", "pool")).isEqualTo(250.0);
        String[] high = {"name", "ml-queue", "namespace", "ml", "priority_class", "high"};
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_ADMITTED_WORKLOADS, high)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_QUOTA_RESERVED_WORKLOADS, high)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "team", "priority_class", "high")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_RESOURCE_USAGE,
                "name", "ml-queue", "namespace", "ml", "flavor", "default-cpu", "resource", "cpu")).isEqualTo(6.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_ADMITTED_ACTIVE_WORKLOADS, "name", "ml-queue", "namespace", "ml")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_STATUS, "name", "ml-queue", "namespace", "ml", "active", "True")).isEqualTo(1.0);

        assertPromtoolParses(metrics.body());
    }

    /** promtool check metrics parses the exposition; lint remarks (naming advice) are not format errors. */
    private static void assertPromtoolParses(String exposition) throws Exception {
        Path promtool = ExternalTool.require("promtool", "Install Debian's prometheus package (it brings promtool).");
        Process process = new ProcessBuilder(List.of(promtool.toString(), "check", "metrics")).redirectErrorStream(true).start();
        process.getOutputStream().write(exposition.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        assertThat(output).doesNotContain("error while linting").doesNotContain("text format parsing error");
        for (String series : List.of(MetricNames.COHORT_WEIGHTED_SHARE, MetricNames.LOCAL_QUEUE_ADMITTED_WORKLOADS,
                MetricNames.LOCAL_QUEUE_RESOURCE_USAGE, MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE)) {
            assertThat(output).as("promtool's remarks on " + series).doesNotContain(series);
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return JSON.readTree(send("GET", path, null).body());
    }

    private HttpResponse<String> send(String method, String path, String yaml) {
        return harness.client().send(method, path, yaml == null ? null : "application/yaml", yaml);
    }

    private static String job(String name, int cpu) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: ml
                  labels:
                    kueue.x-k8s.io/queue-name: ml-queue
                    kueue.x-k8s.io/priority-class: high
                spec:
                  suspend: true
                  template:
                    spec:
                      containers:
                      - name: work
                        image: registry.k8s.io/e2e-test-images/agnhost:2.53
                        resources:
                          requests:
                            cpu: %d
                      restartPolicy: Never
                """.formatted(name, cpu);
    }
}
