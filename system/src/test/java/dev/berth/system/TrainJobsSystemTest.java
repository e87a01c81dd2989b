package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static dev.berth.system.SingleWorkerSystem.CLUSTER;
import static dev.berth.system.SingleWorkerSystem.PATIENCE;
import static dev.berth.system.SingleWorkerSystem.podSets;
import static dev.berth.system.SingleWorkerSystem.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsKubectl;
import dev.berth.protocol.Labels;
import dev.berth.protocol.TrainerApi;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubeflow Trainer v2 end to end through the real kubectl: the example ClusterTrainingRuntime and TrainJob in
 * examples/jobs are created on the manager, the TrainJob is queued with its runtime's pod sets (node=2 from
 * trainer.numNodes), dispatched with the runtime to a virtual A100 cluster that has no runtime installed (the
 * agent creates it there), the simulated Trainer expands it into a JobSet whose node pods carry the attempt's
 * labels, success is mirrored back when the node pods succeed, and deleting the TrainJob removes the worker's copy.
 */
@NeedsKubectl
class TrainJobsSystemTest {
    @RegisterExtension
    static final SingleWorkerSystem bed = new SingleWorkerSystem("trainjob");

    @Test
    void aTrainJobRunsItsRuntimesNodePodsOnAWorkerThatHadNoRuntimeAndSucceedsWhenTheyDo() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=trainer.kubeflow.org").ok().stdout())
                .containsPattern("clustertrainingruntimes\\s+trainer.kubeflow.org/v1alpha1\\s+false\\s+ClusterTrainingRuntime")
                .containsPattern("trainingruntimes\\s+trainer.kubeflow.org/v1alpha1\\s+true\\s+TrainingRuntime")
                .containsPattern("trainjobs\\s+trainer.kubeflow.org/v1alpha1\\s+true\\s+TrainJob");
        assertThat(remoteRuntimes()).as("the worker starts without the runtime").isEmpty();
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/trainjob.yaml").ok().stdout())
                .contains("clustertrainingruntime.trainer.kubeflow.org/torch-distributed created")
                .contains("trainjob.trainer.kubeflow.org/torch-mnist created");
        assertThat(bed.kubectl().run("get", "clustertrainingruntimes").ok().stdout()).contains("torch-distributed");

        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "torch-mnist"), w -> w != null);
        assertThat(podSets(queued)).containsExactly(Map.entry("node", 2));
        assertThat(bed.kubectl().jsonpath("team-a", "trainjob", "torch-mnist", ".spec.managedBy"))
                .as("Kueue's managedBy default on the manager's copy").isEqualTo("kueue.x-k8s.io/multikueue");

        GenericKubernetesResource remote = awaitRemote("torch-mnist");
        Map<String, Object> remoteSpec = spec(remote);
        assertThat(remoteSpec).as("the worker's Trainer runs its copy").doesNotContainKey("managedBy").containsEntry("suspend", false);
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(remote.getMetadata().getAnnotations() == null ? Map.of() : remote.getMetadata().getAnnotations())
                .doesNotContainKey(TrainerApi.RUNTIME_ANNOTATION);
        assertThat(remoteRuntimes()).as("the agent created the runtime on the worker").extracting(r -> r.getMetadata().getName())
                .containsExactly("torch-distributed");

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "torch-mnist"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("clusterName").asText()).isEqualTo(CLUSTER);
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");

        List<PodInterval> nodes = nodePods();
        assertThat(nodes).hasSize(2);
        assertThat(nodes).allSatisfy(p -> {
            assertThat(p.attemptId()).isEqualTo(attempt);
            assertThat(p.endPhase()).isEqualTo("Succeeded");
        });
        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "trainjob", "torch-mnist", ".status.conditions[0].type"), "Complete"::equals);
        String table = bed.kubectl().run("get", "trainjobs", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+STATE\\s+AGE$");
        assertThat(table).containsPattern("torch-mnist\\s+Complete");

        assertThat(bed.kubectl().run("delete", "trainjob", "torch-mnist", "-n", "team-a").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "torch-mnist") == null);
        await().atMost(PATIENCE).until(() -> remoteTrainJobs().isEmpty());
        assertThat(remoteRuntimes()).as("the runtime stays: other TrainJobs use it").hasSize(1);
    }

    /** The pods of the JobSet's trainer step: its Job is torch-mnist-node-0 (JobSet's naming). */
    private List<PodInterval> nodePods() {
        return bed.podsLabelled("job-name", "torch-mnist-node-0");
    }

    private GenericKubernetesResource awaitRemote(String name) {
        return bed.awaitRemote(TrainerApi.API_VERSION, TrainerApi.TRAIN_JOB, name);
    }

    private List<GenericKubernetesResource> remoteTrainJobs() {
        return bed.remoteCopies(TrainerApi.API_VERSION, TrainerApi.TRAIN_JOB);
    }

    private List<GenericKubernetesResource> remoteRuntimes() {
        return bed.system().worker(CLUSTER).client().genericKubernetesResources(TrainerApi.API_VERSION, TrainerApi.CLUSTER_TRAINING_RUNTIME)
                .list().getItems();
    }
}
