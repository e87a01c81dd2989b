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
 * Kubeflow Trainer v2 on the manager over real HTTP: the runtimes are stored kinds (cluster-scoped and
 * namespaced), the example TrainJob is queued with the pod sets of its runtime's JobSet and unsuspended in
 * {@code spec} once admitted, and a TrainJob naming a runtime that does not exist is refused with a 422 naming
 * spec.runtimeRef.name, with nothing stored.
 */
class TrainJobsHttpTest {
    private static final String TRAINJOBS = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs";
    private static final String CLUSTER_RUNTIMES = "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes";
    private static final String RUNTIMES = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainingruntimes";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    private HttpResponse<String> post(String path, String yaml) {
        return harness.client().send("POST", path, "application/yaml", yaml);
    }

    /** The example's documents: the ClusterTrainingRuntime, then the TrainJob. */
    private static String[] example() throws Exception {
        return Files.readString(Path.of("..", "examples", "jobs", "trainjob.yaml")).split("(?m)^---$");
    }

    private JsonNode workloadOwnedBy(String name) {
        for (JsonNode workload : harness.client().get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads").path("items")) {
            JsonNode owner = workload.path("metadata").path("ownerReferences").path(0);
            if (owner.path("kind").asText().equals("TrainJob") && owner.path("name").asText().equals(name)) return workload;
        }
        return null;
    }

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }

    @Test
    void theExampleTrainJobIsQueuedWithItsRuntimesPodSetsAndUnsuspendedOnceAdmitted() throws Exception {
        String[] example = example();
        assertThat(post(CLUSTER_RUNTIMES, example[0]).statusCode()).isEqualTo(201);
        assertThat(harness.client().get(CLUSTER_RUNTIMES + "/torch-distributed").path("spec").path("mlPolicy").path("numNodes").asInt())
                .isEqualTo(1);
        assertThat(post(TRAINJOBS, example[1]).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("torch-mnist"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(workload)).containsExactly("node=2");
        JsonNode node = workload.path("spec").path("podSets").path(0).path("template").path("spec").path("containers").path(0);
        assertThat(node.path("resources").path("requests").path("nvidia.com/gpu").asText()).isEqualTo("1");
        await().atMost(Duration.ofSeconds(20)).until(() -> harness.client().get(TRAINJOBS + "/torch-mnist").path("spec").path("suspend").asBoolean(true),
                suspended -> !suspended);
        assertThat(harness.client().get(TRAINJOBS + "/torch-mnist").path("spec").has("managedBy"))
                .as("no MultiKueue check: nothing to hand the job to").isFalse();
    }

    @Test
    void aTrainJobNamingAMissingRuntimeIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        HttpResponse<String> refused = post(TRAINJOBS, example()[1]);

        assertThat(refused.statusCode()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("message").asText()).contains("spec.runtimeRef.name").contains("torch-distributed");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains("spec.runtimeRef.name");
        assertThat(harness.client().send("GET", TRAINJOBS + "/torch-mnist", null, null).statusCode()).isEqualTo(404);
        assertThat(workloadOwnedBy("torch-mnist")).isNull();
    }

    @Test
    void aNamespacedTrainingRuntimeIsStoredInItsNamespaceAndListed() throws Exception {
        String runtime = example()[0].replace("kind: ClusterTrainingRuntime", "kind: TrainingRuntime")
                .replace("  name: torch-distributed\n", "  name: torch-distributed\n  namespace: team-a\n");
        assertThat(post(RUNTIMES, runtime).statusCode()).isEqualTo(201);

        assertThat(harness.client().get(RUNTIMES).path("items").findValuesAsText("name")).contains("torch-distributed");
        assertThat(harness.client().send("GET", CLUSTER_RUNTIMES + "/torch-distributed", null, null).statusCode()).isEqualTo(404);
        String job = example()[1].replace("    name: torch-distributed\n", "    name: torch-distributed\n    kind: TrainingRuntime\n");
        assertThat(post(TRAINJOBS, job).statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("torch-mnist"), w -> w != null);
    }
}
