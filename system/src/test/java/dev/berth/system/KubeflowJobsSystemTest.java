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
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.Labels;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubeflow training jobs end to end through the real kubectl: the examples in examples/jobs are
 * created on the manager, queued and admitted with one pod set per replica type, dispatched to a
 * virtual A100 cluster whose simulated training operator runs their pods with Kubeflow's names and
 * labels, mirrored back so {@code kubectl get} on the manager shows the worker's state, finished, and deleted.
 */
@NeedsKubectl
class KubeflowJobsSystemTest {
    @RegisterExtension
    static final SingleWorkerSystem bed = new SingleWorkerSystem("kubeflow");

    @Test
    void aPyTorchJobRunsOnAWorkerWithItsMasterDecidingSuccessAndKubectlShowsTheWorkersState() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=kubeflow.org").ok().stdout())
                .containsPattern("pytorchjobs\\s+kubeflow.org/v1\\s+true\\s+PyTorchJob")
                .containsPattern("mpijobs\\s+kubeflow.org/v2beta1\\s+true\\s+MPIJob");
        assertThat(bed.kubectl().run("explain", "pytorchjob.spec.pytorchReplicaSpecs").ok().stdout()).contains("pytorchReplicaSpecs");
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/pytorchjob.yaml").ok().stdout())
                .contains("pytorchjob.kubeflow.org/pytorch-mnist created");

        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "pytorch-mnist"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("master", 1, "worker", 2));
        assertThat(bed.kubectl().jsonpath("team-a", "pytorchjob", "pytorch-mnist", ".spec.runPolicy.managedBy"))
                .as("Kueue's managedBy default on the manager's copy").isEqualTo("kueue.x-k8s.io/multikueue");

        GenericKubernetesResource remote = awaitRemote(KubeflowJobKind.PYTORCH_JOB, "pytorch-mnist");
        Map<String, Object> runPolicy = runPolicy(remote);
        assertThat(runPolicy).as("the worker's operator runs its copy").doesNotContainKey("managedBy").containsEntry("suspend", false);
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "pytorch-mnist"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("clusterName").asText()).isEqualTo(CLUSTER);
        assertThat(finished.path("status").path("admission").path("podSetAssignments").findValuesAsText("name"))
                .containsExactly("master", "worker");
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");

        List<PodInterval> pods = podsOf("pytorch-mnist");
        assertThat(pods).extracting(PodInterval::pod)
                .containsExactlyInAnyOrder("pytorch-mnist-master-0", "pytorch-mnist-worker-0", "pytorch-mnist-worker-1");
        assertThat(pods).allSatisfy(p -> assertThat(p.attemptId()).isEqualTo(attempt));
        assertThat(pods).filteredOn(p -> p.pod().endsWith("master-0")).singleElement().satisfies(master -> {
            assertThat(master.labels()).containsEntry(KubeflowJobKind.REPLICA_TYPE_LABEL, "master")
                    .containsEntry(KubeflowJobKind.REPLICA_INDEX_LABEL, "0").containsEntry(KubeflowJobKind.JOB_ROLE_LABEL, "master");
            assertThat(master.endPhase()).isEqualTo("Succeeded");
        });

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "pytorchjob", "pytorch-mnist", ".status.conditions[-1:].type"),
                "Succeeded"::equals);
        assertThat(bed.kubectl().jsonpath("team-a", "pytorchjob", "pytorch-mnist", ".status.replicaStatuses.Master.succeeded")).isEqualTo("1");
        String table = bed.kubectl().run("get", "pytorchjobs", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+STATE\\s+AGE$");
        assertThat(table).containsPattern("pytorch-mnist\\s+Succeeded\\s+\\d+s");
        assertThat(bed.kubectl().run("get", "pytorchjobs", "-n", "team-a", "-o", "wide").ok().stdout())
                .containsPattern("MASTERS\\s+WORKERS").containsPattern("pytorch-mnist\\s+Succeeded\\s+\\S+\\s+0/1/0");
        assertThat(bed.kubectl().run("describe", "pytorchjob", "pytorch-mnist", "-n", "team-a").ok().stdout())
                .contains("Pytorch Replica Specs").contains("CreatedWorkload");

        assertThat(bed.kubectl().run("delete", "pytorchjob", "pytorch-mnist", "-n", "team-a").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "pytorch-mnist") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(KubeflowJobKind.PYTORCH_JOB).isEmpty());
    }

    @Test
    void aRunningPyTorchJobDeletedOnTheManagerIsStoppedOnTheWorker() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "jobs", "pytorchjob.yaml"))
                .replace("name: pytorch-mnist", "name: pytorch-long").replace("berth.dev/sim-runtime: \"3\"", "berth.dev/sim-runtime: \"600\"");
        Path file = Files.writeString(Files.createTempFile("pytorch-long", ".yaml"), yaml);
        bed.kubectl().run("create", "-f", file.toString()).ok();
        await().atMost(PATIENCE).until(() -> podsOf("pytorch-long").stream().filter(p -> !p.ended()).count() == 3);
        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "pytorchjob", "pytorch-long", ".status.conditions[-1:].type"),
                "Running"::equals);

        bed.kubectl().run("delete", "pytorchjob", "pytorch-long", "-n", "team-a").ok();

        await().atMost(PATIENCE).until(() -> remoteCopies(KubeflowJobKind.PYTORCH_JOB).isEmpty());
        await().atMost(PATIENCE).until(() -> podsOf("pytorch-long").stream().allMatch(PodInterval::ended));
    }

    @Test
    void anMpiJobSucceedsWhenItsLauncherDoesAndItsRunningWorkersAreCleanedUp() throws Exception {
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/mpijob.yaml").ok().stdout()).contains("mpijob.kubeflow.org/mpi-pi created");
        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "mpi-pi"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("launcher", 1, "worker", 2));

        GenericKubernetesResource remote = awaitRemote(KubeflowJobKind.MPI_JOB, "mpi-pi");
        assertThat(runPolicy(remote)).doesNotContainKey("managedBy").containsEntry("suspend", false);

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "mpi-pi"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        List<PodInterval> pods = podsOf("mpi-pi");
        assertThat(pods).extracting(PodInterval::pod).containsExactlyInAnyOrder("mpi-pi-launcher", "mpi-pi-worker-0", "mpi-pi-worker-1");
        assertThat(pods).filteredOn(p -> p.pod().equals("mpi-pi-launcher")).singleElement()
                .satisfies(launcher -> assertThat(launcher.endPhase()).isEqualTo("Succeeded"));
        await().atMost(PATIENCE).until(() -> podsOf("mpi-pi").stream().allMatch(PodInterval::ended));

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "mpijob", "mpi-pi", ".status.conditions[-1:].type"),
                "Succeeded"::equals);
        assertThat(bed.kubectl().jsonpath("team-a", "mpijob", "mpi-pi", ".status.replicaStatuses.Launcher.succeeded")).isEqualTo("1");
        assertThat(bed.kubectl().run("get", "mpijob", "mpi-pi", "-n", "team-a").ok().stdout()).containsPattern("mpi-pi\\s+Succeeded");

        bed.kubectl().run("delete", "-f", "examples/jobs/mpijob.yaml").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "mpi-pi") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(KubeflowJobKind.MPI_JOB).isEmpty());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> runPolicy(GenericKubernetesResource remote) {
        Map<String, Object> spec = (Map<String, Object>) remote.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.get("runPolicy");
    }

    private GenericKubernetesResource awaitRemote(KubeflowJobKind kind, String jobName) {
        return bed.awaitRemote(kind.apiVersion(), kind.kind(), jobName);
    }

    private List<GenericKubernetesResource> remoteCopies(KubeflowJobKind kind) {
        return bed.remoteCopies(kind.apiVersion(), kind.kind());
    }

    private List<PodInterval> podsOf(String jobName) {
        return bed.podsLabelled(KubeflowJobKind.JOB_NAME_LABEL, jobName);
    }
}
