package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** KubeRay's decisions as the virtual cluster simulates them: pods of a RayCluster, its readiness, and a RayJob's life. */
class RayRulesTest {
    private static final Instant NOW = Instant.parse("2026-12-02T07:00:00Z");
    private static final Map<String, Object> CLUSTER_SPEC = Map.of(
            "headGroupSpec", Map.of("template", Map.of("spec", Map.of())),
            "workerGroupSpecs", List.of(Map.of("groupName", "GPU", "replicas", 2, "minReplicas", 1, "maxReplicas", 4, "template", Map.of()),
                    Map.of("groupName", "tpu", "replicas", 1, "numOfHosts", 2, "template", Map.of())));
    // the tpu group has no minReplicas (0) and no maxReplicas (KubeRay's default, the int32 maximum): 1 and capped

    @Test
    void aClusterHasItsHeadAndReplicasTimesHostsWorkersWithKubeRaysNames() {
        assertThat(RayRules.wantedPods("rc", CLUSTER_SPEC)).extracting(RayRules.WantedPod::name).containsExactly(
                "rc-head", "rc-gpu-worker-0", "rc-gpu-worker-1", "rc-tpu-worker-0", "rc-tpu-worker-1");
        assertThat(RayRules.wantedPods("rc", CLUSTER_SPEC).get(0).group()).isEqualTo("headgroup");
        assertThat(RayRules.wantedPods("rc", CLUSTER_SPEC).get(1).group()).isEqualTo("GPU");
    }

    @Test
    void aSuspendedClusterHasNoPods() {
        Map<String, Object> suspended = new HashMap<>(CLUSTER_SPEC);
        suspended.put("suspend", true);
        assertThat(RayRules.wantedPods("rc", suspended)).isEmpty();
        assertThat(RayRules.clusterStatus("ns", "rc", suspended, Map.of(), Map.of(), NOW.toString())).containsEntry("state", "suspended");
    }

    @Test
    void aClusterIsReadyOnceEveryPodRunsAndStaysReady() {
        Map<String, String> phases = new HashMap<>(Map.of("rc-head", "Running", "rc-gpu-worker-0", "Running", "rc-gpu-worker-1", "Pending",
                "rc-tpu-worker-0", "Running", "rc-tpu-worker-1", "Running"));
        Map<String, Object> starting = RayRules.clusterStatus("ns", "rc", CLUSTER_SPEC, Map.of(), phases, NOW.toString());
        assertThat(starting).doesNotContainKey("state").containsEntry("availableWorkerReplicas", 3).containsEntry("desiredWorkerReplicas", 4)
                .containsEntry("minWorkerReplicas", 1).containsEntry("maxWorkerReplicas", Integer.MAX_VALUE);
        assertThat(RayRules.clusterStatus("ns", "rc", CLUSTER_SPEC, starting, phases, NOW.toString())).as("nothing changed, nothing written")
                .isEqualTo(starting);

        phases.put("rc-gpu-worker-1", "Running");
        Map<String, Object> ready = RayRules.clusterStatus("ns", "rc", CLUSTER_SPEC, starting, phases, NOW.toString());
        assertThat(ready).containsEntry("state", "ready").containsEntry("availableWorkerReplicas", 4);
        assertThat(ready.get("head")).isEqualTo(Map.of("podName", "rc-head", "serviceName", "rc-head-svc"));
    }

    @Test
    void aRayJobCreatesItsClusterThenItsSubmitterOnceReadyAndFinishesWithIt() {
        Map<String, Object> spec = Map.of("shutdownAfterJobFinishes", true, "rayClusterSpec", CLUSTER_SPEC);
        RayRules.JobDecision created = RayRules.job("ns", "rj", "abcdef12-0000", spec, Map.of(), null, null, Duration.ofSeconds(2), NOW);
        assertThat(created.createCluster()).isTrue();
        assertThat(created.status()).containsEntry("jobDeploymentStatus", "Initializing").containsEntry("rayClusterName", "rj-abcde")
                .containsEntry("dashboardURL", "rj-abcde-head-svc.ns.svc.cluster.local:8265").containsEntry("jobId", "rj-abcde");

        RayRules.JobDecision waiting = RayRules.job("ns", "rj", "abcdef12-0000", spec, created.status(), Map.of(), null, Duration.ofSeconds(2), NOW);
        assertThat(waiting.createSubmitter()).as("not before the cluster is ready").isFalse();
        RayRules.JobDecision running = RayRules.job("ns", "rj", "abcdef12-0000", spec, waiting.status(), Map.of("state", "ready"), null,
                Duration.ofSeconds(2), NOW);
        assertThat(running.createSubmitter()).isTrue();
        assertThat(running.status()).containsEntry("jobDeploymentStatus", "Running").containsEntry("jobStatus", "RUNNING");

        RayRules.JobDecision stillRunning = RayRules.job("ns", "rj", "abcdef12-0000", spec, running.status(), Map.of("state", "ready"), "Running",
                Duration.ofSeconds(2), NOW);
        assertThat(stillRunning.finished()).isFalse();
        RayRules.JobDecision done = RayRules.job("ns", "rj", "abcdef12-0000", spec, running.status(), Map.of("state", "ready"), "Complete",
                Duration.ofSeconds(2), NOW.plusSeconds(5));
        assertThat(done.finished()).isTrue();
        assertThat(done.deleteCluster()).as("shutdownAfterJobFinishes").isTrue();
        assertThat(done.status()).containsEntry("jobDeploymentStatus", "Complete").containsEntry("jobStatus", "SUCCEEDED")
                .containsEntry("endTime", NOW.plusSeconds(5).toString());
    }

    @Test
    void aFailedSubmitterFailsTheRayJob() {
        Map<String, Object> spec = Map.of("shutdownAfterJobFinishes", true, "rayClusterSpec", CLUSTER_SPEC);
        Map<String, Object> running = Map.of("jobDeploymentStatus", "Running", "jobStatus", "RUNNING", "rayClusterName", "rj-abcde");
        RayRules.JobDecision failed = RayRules.job("ns", "rj", "abcdef12", spec, running, Map.of("state", "ready"), "Failed", Duration.ZERO, NOW);
        assertThat(failed.status()).containsEntry("jobDeploymentStatus", "Failed").containsEntry("jobStatus", "FAILED");
        assertThat(failed.finished()).isTrue();
    }

    @Test
    void withoutASubmitterTheEntrypointRunsForTheSimulatedRuntime() {
        Map<String, Object> spec = Map.of("shutdownAfterJobFinishes", true, "submissionMode", "HTTPMode", "rayClusterSpec", CLUSTER_SPEC);
        Map<String, Object> initializing = Map.of("jobDeploymentStatus", "Initializing", "rayClusterName", "rj-abcde");
        RayRules.JobDecision running = RayRules.job("ns", "rj", "abcdef12", spec, initializing, Map.of("state", "ready"), null, Duration.ofSeconds(3), NOW);
        assertThat(running.createSubmitter()).isFalse();
        assertThat(RayRules.job("ns", "rj", "abcdef12", spec, running.status(), Map.of("state", "ready"), null, Duration.ofSeconds(3),
                NOW.plusSeconds(2)).finished()).isFalse();
        assertThat(RayRules.job("ns", "rj", "abcdef12", spec, running.status(), Map.of("state", "ready"), null, Duration.ofSeconds(3),
                NOW.plusSeconds(3)).status()).containsEntry("jobStatus", "SUCCEEDED");
    }
}
