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
 * PyTorchJob and MPIJob on the manager over real HTTP, with the example queues admitting in the manager
 * alone (no MultiKueue check): the examples are accepted, queued with one pod set per replica type and,
 * once admitted, unsuspended in {@code spec.runPolicy}; a job no operator would run is refused with a
 * 422 naming the field, and nothing is stored.
 */
class KubeflowJobsHttpTest {
    private static final String PYTORCHJOBS = "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs";
    private static final String MPIJOBS = "/apis/kubeflow.org/v2beta1/namespaces/team-a/mpijobs";
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

    private static java.util.List<String> podSets(JsonNode workload) {
        java.util.List<String> podSets = new java.util.ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }

    @Test
    void theExamplePyTorchJobIsQueuedPerReplicaTypeAndUnsuspendedOnceAdmitted() throws Exception {
        assertThat(post(PYTORCHJOBS, example("pytorchjob.yaml")).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("PyTorchJob", "pytorch-mnist"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(workload)).containsExactly("master=1", "worker=2");
        assertThat(workload.path("metadata").path("ownerReferences").path(0).path("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
        await().atMost(Duration.ofSeconds(20)).until(() -> harness.client().get(PYTORCHJOBS + "/pytorch-mnist")
                .path("spec").path("runPolicy").path("suspend").asBoolean(true), suspended -> !suspended);
        assertThat(harness.client().get(PYTORCHJOBS + "/pytorch-mnist").path("spec").path("runPolicy").has("managedBy"))
                .as("no MultiKueue check: nothing to hand the job to").isFalse();
    }

    @Test
    void theExampleMpiJobIsQueuedAsLauncherAndWorkers() throws Exception {
        assertThat(post(MPIJOBS, example("mpijob.yaml")).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("MPIJob", "mpi-pi"), w -> w != null);
        assertThat(podSets(workload)).containsExactly("launcher=1", "worker=2");
    }

    @Test
    void aPyTorchJobWithTwoMastersIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        String twoMasters = example("pytorchjob.yaml").replaceFirst("replicas: 1", "replicas: 2");

        HttpResponse<String> refused = post(PYTORCHJOBS, twoMasters);

        assertThat(refused.statusCode()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("message").asText()).contains("spec.pytorchReplicaSpecs[Master].replicas");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains("spec.pytorchReplicaSpecs[Master].replicas");
        assertThat(harness.client().send("GET", PYTORCHJOBS + "/pytorch-mnist", null, null).statusCode()).isEqualTo(404);
        assertThat(workloadOwnedBy("PyTorchJob", "pytorch-mnist")).isNull();
    }

    @Test
    void anMpiJobWithoutALauncherIsRefusedNamingTheField() throws Exception {
        String yaml = example("mpijob.yaml");
        String noLauncher = yaml.substring(0, yaml.indexOf("    Launcher:")) + yaml.substring(yaml.indexOf("    Worker:"));

        HttpResponse<String> refused = post(MPIJOBS, noLauncher);

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("spec.mpiReplicaSpecs[Launcher]");
        assertThat(harness.client().send("GET", MPIJOBS + "/mpi-pi", null, null).statusCode()).isEqualTo(404);
    }
}
