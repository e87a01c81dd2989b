package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A manager on loopback (the {@link #harness()} a test registers) with the e2e example queues (two teams'
 * ClusterQueues in cohort gpu-pool, 8 a100 and 8 h100 GPUs each), and the jobs the dashboard tests submit through the API.
 */
final class DashboardFixture {
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

    final Vertx vertx;
    final BerthManager manager;
    final ManagerClient client;
    private final ManagerHarness harness;

    /** The manager of a dashboard test, over a file store: {@code @RegisterExtension final ManagerHarness harness = DashboardFixture.harness();} */
    static ManagerHarness harness() {
        return ManagerHarness.empty().fileStore();
    }

    DashboardFixture(ManagerHarness harness) throws Exception {
        this.harness = harness;
        vertx = harness.vertx();
        manager = harness.manager();
        client = harness.client();
        assertThat(manager.loadManifests(ManagerHarness.E2E_QUEUES)).isGreaterThan(5);
    }

    String base() {
        return harness.baseUrl();
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

    HttpResponse<String> send(String method, String path, String yaml) {
        return client.send(method, path, ManagerClient.YAML_TYPE, yaml);
    }
}
