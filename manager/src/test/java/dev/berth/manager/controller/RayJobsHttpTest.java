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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * RayJob and RayCluster on the manager over real HTTP, with the example queues admitting in the manager
 * alone (no MultiKueue check): the examples are queued with Kueue's pod sets and unsuspended in
 * {@code spec} once admitted; what Kueue's webhooks refuse is refused with a 422 naming the field, and
 * nothing is stored.
 */
class RayJobsHttpTest {
    private static final String RAYJOBS = "/apis/ray.io/v1/namespaces/team-a/rayjobs";
    private static final String RAYCLUSTERS = "/apis/ray.io/v1/namespaces/team-a/rayclusters";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    private HttpResponse<String> post(String path, String yaml) {
        return harness.client().send("POST", path, "application/yaml", yaml);
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

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }

    @Test
    void theExampleRayJobIsQueuedAsHeadWorkersAndSubmitterAndUnsuspendedOnceAdmitted() throws Exception {
        assertThat(post(RAYJOBS, example("rayjob.yaml")).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("RayJob", "ray-sum"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(workload)).containsExactly("head=1", "gpu-workers=2", "submitter=1");
        assertThat(workload.path("metadata").path("ownerReferences").path(0).path("apiVersion").asText()).isEqualTo("ray.io/v1");
        await().atMost(Duration.ofSeconds(20)).until(() -> harness.client().get(RAYJOBS + "/ray-sum").path("spec").path("suspend").asBoolean(true),
                suspended -> !suspended);
        assertThat(harness.client().get(RAYJOBS + "/ray-sum").path("spec").has("managedBy"))
                .as("no MultiKueue check: nothing to hand the job to").isFalse();
    }

    @Test
    void theExampleRayClusterIsQueuedAsHeadAndWorkers() throws Exception {
        assertThat(post(RAYCLUSTERS, example("raycluster.yaml")).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("RayCluster", "ray-interactive"), w -> w != null);
        assertThat(podSets(workload)).containsExactly("head=1", "gpu-workers=2");
    }

    @Test
    void anAutoscalingRayClusterIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        String autoscaling = example("raycluster.yaml").replace("  suspend: true\n", "  suspend: true\n  enableInTreeAutoscaling: true\n");

        HttpResponse<String> refused = post(RAYCLUSTERS, autoscaling);

        assertThat(refused.statusCode()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("message").asText()).contains("spec.enableInTreeAutoscaling");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains("spec.enableInTreeAutoscaling");
        assertThat(harness.client().send("GET", RAYCLUSTERS + "/ray-interactive", null, null).statusCode()).isEqualTo(404);
        assertThat(workloadOwnedBy("RayCluster", "ray-interactive")).isNull();
    }

    @Test
    void aRayJobThatKeepsItsClusterIsRefusedNamingTheField() throws Exception {
        String keeps = example("rayjob.yaml").replace("shutdownAfterJobFinishes: true", "shutdownAfterJobFinishes: false");

        HttpResponse<String> refused = post(RAYJOBS, keeps);

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("spec.shutdownAfterJobFinishes");
        assertThat(harness.client().send("GET", RAYJOBS + "/ray-sum", null, null).statusCode()).isEqualTo(404);
    }
}
