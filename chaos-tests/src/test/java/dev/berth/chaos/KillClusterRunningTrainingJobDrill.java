package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsDocker;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.virtualcluster.PodInterval;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Drill 11: kill the whole cluster (API server, every pod, agent) running a multi-replica training job,
 * a PyTorchJob of a master and two workers (issue 17).
 *
 * <p>Invariant: the job is redispatched under a new attempt after workerLostTimeout, its master and every
 * worker run again elsewhere and it finishes exactly once; no two attempts' pods are ever alive at once.
 */
@Tag("needs-failover")
@Order(6)
@NeedsDocker
class KillClusterRunningTrainingJobDrill {
    static final String DRILL = "kill-cluster-running-training-job";
    static final String INVARIANT = "A PyTorchJob (master and two workers) on a cluster that vanished is redispatched under a new attempt"
            + " after workerLostTimeout, runs every replica again elsewhere and finishes exactly once; no two attempts are ever alive at once.";
    private static final String JOB = "pytorch-failover";
    private static final int WORKERS = 2;
    private static final String RUNTIME = "PT20S";

    @Test
    void aTrainingJobOfAVanishedClusterFinishesElsewhereUnderANewAttemptExactlyOnce() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        try {
            DrillEnvironment env = SharedEnvironment.borrow(LostSiteScenario.SHARED, LostSiteScenario.setup());
            env.say("drill " + DRILL);
            if (!env.submitTo(Invariants.PYTORCH_JOBS, JOB, pyTorchJob(JOB, WORKERS, 2, RUNTIME))) {
                throw new AssertionError("the PyTorchJob was not acknowledged");
            }
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> DrillEnvironment.isRunning(env.workloadOf(JOB)) && runningPods(env, attemptOf(env.workloadOf(JOB))) == WORKERS + 1);
            JsonNode running = env.workloadOf(JOB);
            String victim = DrillEnvironment.clusterOf(running);
            String firstAttempt = attemptOf(running);
            timeline.note("lostSite", victim);
            timeline.note("firstAttempt", firstAttempt);

            env.say("killing " + victim + ", which runs " + JOB + " attempt " + firstAttempt);
            timeline.fault();
            env.site(victim).killCluster();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> !env.clusterActive(victim)
                    || "True".equals(ManagerApi.condition(env.workloadOf(JOB), "Evicted")) || !firstAttempt.equals(attemptOf(env.workloadOf(JOB))));
            timeline.detected();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> {
                JsonNode w = env.workloadOf(JOB);
                return DrillEnvironment.isFinished(w) || (DrillEnvironment.isRunning(w) && !victim.equals(DrillEnvironment.clusterOf(w)));
            });
            timeline.recovered();
            env.say("recovered: " + JOB + " runs on " + DrillEnvironment.clusterOf(env.workloadOf(JOB)));

            env.awaitAllFinished(Duration.ofMinutes(3));
            DrillVerdict invariants = env.verdict(JOB, Invariants.PYTORCH_JOBS);
            List<String> violations = new ArrayList<>(invariants.violations());
            violations.addAll(redispatched(env, victim, firstAttempt, timeline));
            verdict = new DrillVerdict(invariants.workloads(), violations);
            verdict.assertHolds();
        } finally {
            DrillReport.write(DRILL, INVARIANT, timeline, verdict);
            SharedEnvironment.discard(); // a killed cluster is not healed; the next drill starts afresh
        }
    }

    /** What this drill adds to the four invariants: the lost attempt is recorded, and every replica ran again in the new one. */
    private static List<String> redispatched(DrillEnvironment env, String victim, String firstAttempt, DrillTimeline timeline) {
        List<String> violations = new ArrayList<>();
        JsonNode done = env.workloadOf(JOB);
        String secondAttempt = attemptOf(done);
        timeline.note("secondAttempt", secondAttempt);
        timeline.note("finishedOn", DrillEnvironment.clusterOf(done));
        JsonNode lost = done.path("status").path("dispatchHistory").path(0);
        if (!firstAttempt.equals(lost.path("attemptId").asText()) || !"ClusterLost".equals(lost.path("outcome").asText())) {
            violations.add("history: the first attempt " + firstAttempt + " is not recorded as ClusterLost: " + done.path("status").path("dispatchHistory"));
        }
        if (secondAttempt.equals(firstAttempt) || victim.equals(DrillEnvironment.clusterOf(done))) {
            violations.add("not redispatched: finished in attempt " + secondAttempt + " on " + DrillEnvironment.clusterOf(done));
        }
        Set<String> rerun = env.podLifetimes().stream().filter(p -> secondAttempt.equals(p.attemptId()) && "Succeeded".equals(p.endPhase()))
                .map(PodInterval::pod).collect(Collectors.toSet());
        Set<String> replicas = Set.of(JOB + "-master-0", JOB + "-worker-0", JOB + "-worker-1");
        if (!rerun.equals(replicas)) violations.add("replicas: the new attempt ran " + rerun + " to success, not " + replicas);
        return violations;
    }

    private static String attemptOf(JsonNode workload) {
        return workload == null ? "" : workload.path("status").path("dispatch").path("attemptId").asText("");
    }

    private static long runningPods(DrillEnvironment env, String attempt) {
        return env.podLifetimes().stream().filter(p -> attempt.equals(p.attemptId()) && !p.ended()
                && JOB.equals(p.labels().get(KubeflowJobKind.JOB_NAME_LABEL))).count();
    }

    /** A PyTorchJob of a master and {@code workers} workers, each asking for {@code gpus} A100 GPUs for {@code runtime}. */
    static String pyTorchJob(String name, int workers, int gpus, String runtime) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: %s
                  namespace: %s
                  labels:
                    kueue.x-k8s.io/queue-name: %s
                spec:
                  runPolicy:
                    suspend: true
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                %s
                    Worker:
                      replicas: %d
                %s
                """.formatted(name, ChaosQueues.NAMESPACE, ChaosQueues.LOCAL_QUEUE, replica(runtime, gpus), workers, replica(runtime, gpus));
    }

    private static String replica(String runtime, int gpus) {
        return """
                      restartPolicy: Never
                      template:
                        metadata:
                          annotations:
                            berth.dev/sim-runtime: %s
                        spec:
                          nodeSelector:
                            nvidia.com/gpu.product: %s
                          containers:
                          - name: pytorch
                            image: registry.example/train:1
                            resources:
                              requests:
                                cpu: "1"
                                memory: 1Gi
                                nvidia.com/gpu: "%d"
                              limits:
                                nvidia.com/gpu: "%d"\
                """.formatted(runtime, ChaosQueues.GPU_PRODUCT, gpus, gpus);
    }
}
