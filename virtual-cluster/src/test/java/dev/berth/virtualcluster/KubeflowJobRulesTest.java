package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.KubeflowJobKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated training operators' decisions: pod names, completion and failure rules, conditions and replica counts. */
class KubeflowJobRulesTest {
    private static final String NOW = "2026-12-02T00:00:00Z";

    private static Map<String, Object> spec(String field, Map<String, Object> replicas, boolean suspend) {
        return Map.of("runPolicy", Map.of("suspend", suspend), field, replicas);
    }

    private static final Map<String, Object> PYTORCH = spec("pytorchReplicaSpecs",
            Map.of("Master", Map.of("replicas", 1), "Worker", Map.of("replicas", 2)), false);
    private static final Map<String, Object> MPI = spec("mpiReplicaSpecs",
            Map.of("Launcher", Map.of(), "Worker", Map.of("replicas", 2)), false);

    private static KubeflowJobRules.Decision pytorch(Map<String, String> phases) {
        return KubeflowJobRules.decide(KubeflowJobKind.PYTORCH_JOB, "mnist", PYTORCH, Map.of(), phases, NOW);
    }

    @SuppressWarnings("unchecked")
    private static List<String> trueConditions(KubeflowJobRules.Decision decision) {
        return ((List<Map<String, Object>>) decision.status().get("conditions")).stream()
                .filter(c -> "True".equals(c.get("status"))).map(c -> (String) c.get("type")).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> replicaStatus(KubeflowJobRules.Decision decision, String type) {
        return (Map<String, Object>) ((Map<String, Object>) decision.status().get("replicaStatuses")).get(type);
    }

    @Test
    void aNewPyTorchJobGetsAMasterAndItsWorkersNamedAsTheOperatorNamesThem() {
        KubeflowJobRules.Decision decision = pytorch(Map.of());

        assertThat(decision.create()).extracting(KubeflowJobRules.WantedPod::name)
                .containsExactly("mnist-master-0", "mnist-worker-0", "mnist-worker-1");
        assertThat(trueConditions(decision)).containsExactly("Created");
    }

    @Test
    void aMpiJobsLauncherIsNamedAfterTheJobAndItsWorkersByIndex() {
        KubeflowJobRules.Decision decision = KubeflowJobRules.decide(KubeflowJobKind.MPI_JOB, "pi", MPI, Map.of(), Map.of(), NOW);

        assertThat(decision.create()).extracting(KubeflowJobRules.WantedPod::name).containsExactly("pi-launcher", "pi-worker-0", "pi-worker-1");
    }

    @Test
    void thePyTorchJobRunsWhileItsMasterRunsEvenThoughAWorkerFinished() {
        KubeflowJobRules.Decision decision = pytorch(Map.of("mnist-master-0", "Running", "mnist-worker-0", "Succeeded",
                "mnist-worker-1", "Running"));

        assertThat(trueConditions(decision)).containsExactly("Created", "Running");
        assertThat(decision.finished()).isFalse();
        assertThat(replicaStatus(decision, "Worker")).isEqualTo(Map.of("active", 1, "succeeded", 1, "failed", 0));
    }

    @Test
    void thePyTorchJobSucceedsWhenItsMasterDoesAndKeepsItsRunningWorkers() {
        KubeflowJobRules.Decision decision = pytorch(Map.of("mnist-master-0", "Succeeded", "mnist-worker-0", "Running",
                "mnist-worker-1", "Running"));

        assertThat(trueConditions(decision)).containsExactly("Created", "Succeeded");
        assertThat(decision.finished()).isTrue();
        assertThat(decision.deleteActive()).as("cleanPodPolicy None by default").isFalse();
        assertThat(decision.status()).containsEntry("completionTime", NOW);
    }

    @Test
    void anyFailedPodFailsTheJob() {
        KubeflowJobRules.Decision decision = pytorch(Map.of("mnist-master-0", "Running", "mnist-worker-0", "Failed",
                "mnist-worker-1", "Running"));

        assertThat(trueConditions(decision)).containsExactly("Created", "Failed");
        assertThat(replicaStatus(decision, "Worker")).containsEntry("failed", 1);
    }

    @Test
    void anMpiJobSucceedsWithItsLauncherAndItsRunningWorkersAreCleanedUp() {
        KubeflowJobRules.Decision decision = KubeflowJobRules.decide(KubeflowJobKind.MPI_JOB, "pi", MPI, Map.of(),
                Map.of("pi-launcher", "Succeeded", "pi-worker-0", "Running", "pi-worker-1", "Running"), NOW);

        assertThat(trueConditions(decision)).containsExactly("Created", "Succeeded");
        assertThat(decision.deleteActive()).as("cleanPodPolicy Running by default").isTrue();
    }

    @Test
    void aSuspendedJobHasNoPods() {
        Map<String, Object> suspended = spec("pytorchReplicaSpecs", Map.of("Master", Map.of()), true);
        KubeflowJobRules.Decision decision = KubeflowJobRules.decide(KubeflowJobKind.PYTORCH_JOB, "s", suspended, Map.of(),
                Map.of("s-master-0", "Running"), NOW);

        assertThat(decision.create()).isEmpty();
        assertThat(decision.deleteActive()).isTrue();
        assertThat(trueConditions(decision)).contains("Suspended").doesNotContain("Running");
    }
}
