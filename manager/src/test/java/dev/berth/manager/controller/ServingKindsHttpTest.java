package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The serving kinds on the manager over real HTTP, with the example queues admitting in the manager alone:
 * discovery names their scale subresource as an autoscaling/v1 Scale, the examples are queued long-running with
 * Kueue's pod sets and nothing added to their spec, the scale subresource reads and rescales the object (a
 * Deployment is re-admitted under a new Workload), and a StatefulSet resized between non-zero sizes is refused
 * with a 422 naming spec.replicas while nothing changes.
 */
class ServingKindsHttpTest {
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/team-a/deployments";
    private static final String STATEFULSETS = "/apis/apps/v1/namespaces/team-a/statefulsets";
    private static final String LWS = "/apis/leaderworkerset.x-k8s.io/v1/namespaces/team-a/leaderworkersets";
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    private HttpResponse<String> post(String path, String yaml) {
        return harness.client().send("POST", path, "application/yaml", yaml);
    }

    private HttpResponse<String> patchScale(String object, int replicas) {
        return harness.client().send("PATCH", object + "/scale", "application/merge-patch+json", "{\"spec\":{\"replicas\":" + replicas + "}}");
    }

    private static String example(String file) throws Exception {
        return Files.readString(Path.of("..", "examples", "jobs", file));
    }

    private JsonNode workloadOwnedBy(String kind, String name) {
        for (JsonNode workload : harness.client().get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads").path("items")) {
            JsonNode owner = workload.path("metadata").path("ownerReferences").path(0);
            if (owner.path("kind").asText().equals(kind) && owner.path("name").asText().equals(name)) return workload;
        }
        return null;
    }

    private static java.util.List<String> podSets(JsonNode workload) {
        java.util.List<String> podSets = new java.util.ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }

    @Test
    void discoveryNamesTheScaleSubresourceAsAnAutoscalingScale() {
        JsonNode resources = harness.client().get("/apis/apps/v1").path("resources");
        JsonNode scale = null;
        for (JsonNode resource : resources) if (resource.path("name").asText().equals("deployments/scale")) scale = resource;
        assertThat(scale).isNotNull();
        assertThat(scale.path("group").asText()).isEqualTo("autoscaling");
        assertThat(scale.path("version").asText()).isEqualTo("v1");
        assertThat(scale.path("kind").asText()).isEqualTo("Scale");
    }

    @Test
    void aDeploymentIsAdmittedAsItIsAndRescaledThroughItsScaleSubresourceUnderANewWorkload() throws Exception {
        assertThat(post(DEPLOYMENTS, example("deployment.yaml")).statusCode()).isEqualTo(201);
        JsonNode first = await().atMost(PATIENCE).until(() -> workloadOwnedBy("Deployment", "vllm-server"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(first)).containsExactly("main=2");
        assertThat(harness.client().get(DEPLOYMENTS + "/vllm-server").path("spec").has("suspend")).as("no switch is added").isFalse();

        JsonNode scale = harness.client().get(DEPLOYMENTS + "/vllm-server/scale");
        assertThat(scale.path("kind").asText()).isEqualTo("Scale");
        assertThat(scale.path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(scale.path("status").path("selector").asText()).isEqualTo("app=vllm-server");

        HttpResponse<String> scaled = patchScale(DEPLOYMENTS + "/vllm-server", 3);
        assertThat(scaled.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(scaled.body()).path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(harness.client().get(DEPLOYMENTS + "/vllm-server").path("spec").path("replicas").asInt()).isEqualTo(3);
        JsonNode second = await().atMost(PATIENCE).until(() -> workloadOwnedBy("Deployment", "vllm-server"),
                w -> w != null && podSets(w).equals(java.util.List.of("main=3")) && "True".equals(condition(w, "Admitted")));
        assertThat(second.path("metadata").path("name").asText()).isNotEqualTo(first.path("metadata").path("name").asText());
    }

    @Test
    void aStatefulSetResizedBetweenNonZeroSizesIsRefusedAndScaledToZeroItsWorkloadGoes() throws Exception {
        assertThat(post(STATEFULSETS, example("statefulset.yaml")).statusCode()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> workloadOwnedBy("StatefulSet", "triton"), w -> w != null && "True".equals(condition(w, "Admitted")));

        HttpResponse<String> refused = patchScale(STATEFULSETS + "/triton", 3);
        assertThat(refused.statusCode()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains("spec.replicas");
        assertThat(harness.client().get(STATEFULSETS + "/triton").path("spec").path("replicas").asInt()).as("nothing stored").isEqualTo(2);

        assertThat(patchScale(STATEFULSETS + "/triton", 0).statusCode()).isEqualTo(200);
        await().atMost(PATIENCE).until(() -> workloadOwnedBy("StatefulSet", "triton") == null);
        assertThat(patchScale(STATEFULSETS + "/triton", 2).statusCode()).isEqualTo(200);
        await().atMost(PATIENCE).until(() -> workloadOwnedBy("StatefulSet", "triton"), w -> w != null && "True".equals(condition(w, "Admitted")));
    }

    @Test
    void aStrategicMergePatchMergesADeploymentsContainersByName() throws Exception {
        assertThat(post(DEPLOYMENTS, example("deployment.yaml")).statusCode()).isEqualTo(201);

        HttpResponse<String> patched = harness.client().send("PATCH", DEPLOYMENTS + "/vllm-server", "application/strategic-merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"vllm\",\"image\":\"docker.io/vllm/vllm-openai:v0.6.4\"}]}}}}");

        assertThat(patched.statusCode()).isEqualTo(200);
        JsonNode container = harness.client().get(DEPLOYMENTS + "/vllm-server").at("/spec/template/spec/containers/0");
        assertThat(container.path("image").asText()).isEqualTo("docker.io/vllm/vllm-openai:v0.6.4");
        assertThat(container.at("/resources/requests/nvidia.com~1gpu").asText()).as("merged by name, not replaced").isEqualTo("1");
    }

    @Test
    void theExampleLeaderWorkerSetIsQueuedAsLeaderAndWorkers() throws Exception {
        assertThat(post(LWS, example("leaderworkerset.yaml")).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(PATIENCE).until(() -> workloadOwnedBy("LeaderWorkerSet", "vllm-multinode"), w -> w != null);
        assertThat(podSets(workload)).containsExactly("leader=1", "worker=2");
        assertThat(harness.client().get(LWS + "/vllm-multinode/scale").path("status").path("selector").asText())
                .isEqualTo("leaderworkerset.sigs.k8s.io/name=vllm-multinode");
    }
}
