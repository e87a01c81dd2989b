package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.berth.manager.testing.ManagerClient.condition;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.protocol.crd.RemoteWorkload;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A new leader takes office over a store whose workloads finished under the previous one: it recovers no
 * attempt for them, so it neither deletes their (already deleted) remote copies again nor clears their
 * status.dispatch. Before, each finished workload cost a delete call and a store write at every takeover
 * (drill 5: 36-48 of them right before the new leader's first scheduling).
 */
class FinishedWorkloadTakeoverTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final DispatchOptions OPTIONS =
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(OPTIONS);
    private MockWorkerCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MockWorkerCluster.start("roomy").heartbeat(8);
        apply("v1", "namespaces", null, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(KUEUE, "resourceflavors", null, "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"}}");
        apply(KUEUE, "multikueueconfigs", null, "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},"
                + "\"spec\":{\"clusters\":[\"roomy\"]}}");
        apply(KUEUE, "admissionchecks", null, "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        apply(KUEUE, "clusterqueues", null, "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":64}]}]}]}}");
        apply(KUEUE, "localqueues", "team-a", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        apply(KUEUE, "multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"roomy\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + cluster.kubeconfig() + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/roomy"), "Active")));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aFinishedWorkloadKeepsItsDispatchRecordAcrossATakeover() throws Exception {
        submitJob();
        RemoteWorkload remote = await().atMost(WAIT).until(this::attempt, r -> r != null);
        cluster.reportSucceeded(remote, 1);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
        await().atMost(WAIT).until(() -> attempt() == null); // the manager deleted the finished copy
        String attemptId = workload().path("status").path("dispatch").path("attemptId").asText();
        assertThat(attemptId).isEqualTo(remote.getSpec().getAttemptId());
        harness.stopManager();

        harness.restart();
        await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/roomy"), "Active")));

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> attemptId.equals(workload().path("status").path("dispatch").path("attemptId").asText()));
    }

    private RemoteWorkload attempt() {
        return cluster.attempt();
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob() throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,\"completions\":1,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"1\"}}}]}}}}";
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", job).statusCode()).isEqualTo(201);
    }

    private JsonNode workload() throws Exception {
        JsonNode list = get(KUEUE + "/namespaces/team-a/workloads");
        return list.path("items").size() == 0 ? null : list.path("items").get(0);
    }

    private void apply(String prefix, String plural, String namespace, String body) throws Exception {
        String path = (prefix.equals("v1") ? "/api/v1" : prefix) + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send("POST", path, withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return harness.client().send(method, path, ManagerClient.JSON_TYPE, body);
    }
}
