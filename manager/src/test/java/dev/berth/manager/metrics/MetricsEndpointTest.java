package dev.berth.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.protocol.MetricNames;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** GET /metrics on a running manager over loopback, after real submissions through the Kubernetes API. */
class MetricsEndpointTest {
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore().manifests(Path.of("src", "test", "resources", "metrics-queues"));

    @Test
    void servesKueuesMetricsForAdmittedAndPendingJobs() throws Exception {
        assertThat(post(job("first")).statusCode()).isEqualTo(201);
        assertThat(post(job("second")).statusCode()).isEqualTo(201);

        HttpResponse<String> response = await().atMost(Duration.ofSeconds(10)).until(this::metrics,
                r -> Double.valueOf(1.0).equals(new PrometheusText(r.body()).value(MetricNames.PENDING_WORKLOADS,
                        "cluster_queue", "ml-cq", "status", "inadmissible")));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        PrometheusText scrape = new PrometheusText(response.body());
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "ml-cq", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.PENDING_WORKLOADS, "cluster_queue", "ml-cq", "status", "active")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE,
                "cohort", "", "cluster_queue", "ml-cq", "flavor", "default-cpu", "resource", "cpu")).isEqualTo(2.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_STATUS, "cluster_queue", "ml-cq", "status", "active")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMISSION_WAIT_TIME + "_count", "cluster_queue", "ml-cq", "priority_class", "")).isEqualTo(1.0);
        // the two creates, their scheduling and the scrape's own refresh each ran as a state-thread task
        assertThat(total(scrape, MetricNames.STATE_THREAD_QUEUE_DURATION + "_count")).isGreaterThanOrEqualTo(3.0);
        assertThat(total(scrape, MetricNames.STATE_THREAD_WORK_DURATION + "_count")).isGreaterThanOrEqualTo(3.0);
        assertThat(total(scrape, MetricNames.STATE_THREAD_WORK_DURATION + "_sum")).isGreaterThan(0.0);
    }

    private static double total(PrometheusText scrape, String name) {
        return scrape.family(name).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    private HttpResponse<String> metrics() {
        return harness.client().send("GET", "/metrics", null, null);
    }

    private HttpResponse<String> post(String yaml) {
        return harness.client().send("POST", "/apis/batch/v1/namespaces/ml/jobs", ManagerClient.YAML_TYPE, yaml);
    }

    private static String job(String name) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: ml
                  labels:
                    kueue.x-k8s.io/queue-name: ml-queue
                spec:
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
                """.formatted(name);
    }
}
