package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.FileObjectStore;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A manager on loopback with the e2e example queues (two teams' ClusterQueues in cohort gpu-pool,
 * 8 a100 and 8 h100 GPUs each), and the jobs the dashboard tests submit through the API.
 */
final class DashboardFixture implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: %s
              namespace: %s
              labels:
                kueue.x-k8s.io/queue-name: %s-queue
            spec:
              parallelism: %d
              completions: %d
              suspend: true
              template:
                spec:
                  containers:
                  - name: train
                    image: registry.k8s.io/e2e-test-images/agnhost:2.53
                    resources:
                      requests:
                        nvidia.com/gpu: 1
                  restartPolicy: Never
            """;

    final Vertx vertx = Vertx.vertx();
    final BerthManager manager;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    DashboardFixture(Path data) throws Exception {
        manager = new BerthManager(FileObjectStore.open(data, Clock.systemUTC()), Clock.systemUTC(), SchedulerOptions.DEFAULTS);
        manager.start(vertx, "127.0.0.1", 0).await();
        assertThat(manager.loadManifests(Path.of("src", "test", "resources", "e2e-queues"))).isGreaterThan(5);
    }

    String base() {
        return "http://127.0.0.1:" + manager.port();
    }

    /** Submits a job of {@code gpus} one-GPU pods to the team's LocalQueue and returns its Workload's name. */
    String submit(String team, String job, int gpus) throws Exception {
        HttpResponse<String> created = send("POST", "/apis/batch/v1/namespaces/" + team + "/jobs",
                JOB.formatted(job, team, team, gpus, gpus));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return await().atMost(Duration.ofSeconds(10)).until(() -> workloadOf(team, job), name -> name != null);
    }

    private String workloadOf(String namespace, String job) throws Exception {
        JsonNode list = JSON.readTree(send("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + namespace + "/workloads", null).body());
        for (JsonNode workload : list.path("items")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (owner.path("name").asText().equals(job)) return workload.path("metadata").path("name").asText();
            }
        }
        return null;
    }

    /** A MultiKueueCluster whose kubeconfig Secret does not exist: listed, never connected. */
    void registerUnreachableCluster(String name) throws Exception {
        HttpResponse<String> created = send("POST", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: MultiKueueCluster
                metadata:
                  name: %1$s
                spec:
                  clusterSource:
                    kubeConfig:
                      locationType: Secret
                      location: %1$s-kubeconfig
                """.formatted(name));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    HttpResponse<String> send(String method, String path, String yaml) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(10));
        if (yaml == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.method(method, HttpRequest.BodyPublishers.ofString(yaml)).header("content-type", "application/yaml");
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        manager.close();
        vertx.close().await();
    }
}
