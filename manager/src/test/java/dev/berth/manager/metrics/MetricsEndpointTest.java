package dev.berth.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.server.BerthManager;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.protocol.MetricNames;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /metrics on a running manager over loopback, after real submissions through the Kubernetes API. */
class MetricsEndpointTest {
    @TempDir
    Path data;
    private Vertx vertx;
    private BerthManager manager;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        manager = new BerthManager(FileObjectStore.open(data, Clock.systemUTC()), Clock.systemUTC(), SchedulerOptions.DEFAULTS);
        manager.start(vertx, "127.0.0.1", 0).await();
        manager.loadManifests(Path.of("src", "test", "resources", "metrics-queues"));
    }

    @AfterEach
    void stop() {
        manager.close();
        vertx.close().await();
    }

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
    }

    private HttpResponse<String> metrics() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + "/metrics"))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String yaml) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + "/apis/batch/v1/namespaces/ml/jobs"))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
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
