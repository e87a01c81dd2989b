package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsDocker;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Drill: a worker's capacity vanishes after placement (issue 20 rule 1).
 *
 * <p>worker-2 is first filled by another tenant's pods, created directly on its API, so the manager places on
 * worker-1. Then worker-1's agent freezes for a moment (a stale heartbeat: the manager still sees its last
 * report of free GPUs) while another tenant fills worker-1 the same way, and the job is submitted: it is placed
 * on worker-1, where the thawed agent either finds no room and reports it Pending, or (its watch of the pods
 * behind its watch of attempts) admits it and its pods find no node. worker-2's tenant leaves. After the
 * start timeout the manager withdraws the copy from worker-1 under the drain's fence and places it on worker-2,
 * where it finishes.
 *
 * <p>Invariant: the job is re-placed and finishes elsewhere exactly once, never two copies alive.
 */
@Tag("needs-failover")
@Order(7)
@NeedsDocker
class WorkerCapacityVanishesDrill {
    static final String INVARIANT = "A job its worker cannot start after placement is withdrawn after the start timeout,"
            + " re-placed on a worker with room and finishes there exactly once, never two copies alive.";
    private static final String DRILL = "capacity-vanishes";
    private static final String JOB = DRILL + "-0";
    /** Each site has two 8-GPU nodes: two 8-GPU pods fill it. */
    private static final int FILLERS = 2;

    @Test
    void aJobItsWorkerCannotStartIsWithdrawnAndFinishesElsewhere() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        DrillEnvironment env = null;
        try {
            env = DrillEnvironment.start(DRILL, DrillSetup.twoSites().withManagerFlags(ManagerFlags.FAILOVER)
                    .withManagerFlags(ManagerFlags.START_TIMEOUT));
            DrillEnvironment drill = env;
            WorkerSite target = env.site("worker-1");
            WorkerSite other = env.site("worker-2");
            KubernetesClient targetTenant = target.tenantClient();
            KubernetesClient otherTenant = other.tenantClient();

            env.say("worker-2 filled by another tenant, so the manager places on worker-1");
            fill(otherTenant, "other-tenant");
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> freeGpus(drill, "worker-2") == 0);

            env.say("worker-1's agent frozen (stale heartbeat) while another tenant fills worker-1; the job is submitted");
            timeline.fault();
            Faults.pause(target.agent());
            fill(targetTenant, "other-tenant");
            env.submit(JOB, 8, "PT20S");
            await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                    .until(() -> "worker-1".equals(dispatchedTo(drill.workloadOf(JOB))));
            // the fillers must hold the nodes before the agent wakes: an unbound filler is no one's capacity yet, and the
            // agent would admit the job into the room it is about to take (one CI run lost the race and the job just ran)
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> targetTenant.pods()
                    .inNamespace(ChaosQueues.NAMESPACE).withLabel("drill", "other-tenant").list().getItems().stream()
                    .filter(pod -> pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()).count() == FILLERS);
            Faults.unpause(target.agent());
            timeline.note("placedOn", "worker-1");
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> notStarted(drill.workloadOf(JOB)) != null);
            String stuck = notStarted(drill.workloadOf(JOB));
            timeline.note("notStarted", stuck);
            env.say("worker-1 cannot start the job: " + stuck);
            otherTenant.pods().inNamespace(ChaosQueues.NAMESPACE).withLabel("drill", "other-tenant").delete();

            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> withdrawn(drill.workloadOf(JOB)) != null);
            timeline.detected();
            String message = withdrawn(drill.workloadOf(JOB));
            timeline.note("withdrawal", message);
            env.say("withdrawn: " + message);
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> {
                JsonNode workload = drill.workloadOf(JOB);
                return DrillEnvironment.isFinished(workload)
                        || (DrillEnvironment.isRunning(workload) && "worker-2".equals(DrillEnvironment.clusterOf(workload)));
            });
            timeline.recovered();
            timeline.note("runsOn", DrillEnvironment.clusterOf(drill.workloadOf(JOB)));
            env.say("recovered: the job runs on worker-2");

            env.awaitAllFinished(Duration.ofMinutes(3));
            verdict = env.verdict(DRILL + "-");
            verdict.assertHolds();
        } finally {
            DrillReport.write(DRILL, INVARIANT, timeline, verdict);
            if (env != null) env.close();
        }
    }

    /** Another tenant's pods, created on the cluster's own API: one 8-GPU pod per node, running for ten minutes. */
    private static void fill(KubernetesClient tenant, String label) {
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName(ChaosQueues.NAMESPACE).endMetadata().build();
        tenant.namespaces().resource(namespace).createOr(NonDeletingOperation::update);
        for (int i = 0; i < FILLERS; i++) {
            Pod pod = new PodBuilder().withNewMetadata().withName(label + "-" + i).withNamespace(ChaosQueues.NAMESPACE)
                    .addToLabels("drill", label).addToAnnotations("berth.dev/sim-runtime", "PT10M").endMetadata()
                    .withNewSpec().withRestartPolicy("Never").addToNodeSelector("nvidia.com/gpu.product", ChaosQueues.GPU_PRODUCT)
                    .addNewToleration().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").endToleration()
                    .addNewContainer().withName("main").withImage("registry.example/other:1")
                    .withNewResources().addToRequests(Map.of("cpu", new Quantity("1"), "nvidia.com/gpu", new Quantity("8")))
                    .addToLimits("nvidia.com/gpu", new Quantity("8")).endResources().endContainer().endSpec().build();
            tenant.pods().inNamespace(ChaosQueues.NAMESPACE).resource(pod).create();
        }
    }

    /** The free GPUs the manager sees on a cluster (its last capacity report). */
    private static long freeGpus(DrillEnvironment env, String cluster) {
        JsonNode clusters = env.api().get("/apis/visibility.berth.dev/v1alpha1/clusters");
        if (clusters == null) return -1;
        for (JsonNode item : clusters.path("items")) {
            if (!cluster.equals(item.path("name").asText())) continue;
            long free = 0;
            for (JsonNode flavor : item.path("capacity")) free += Long.parseLong(flavor.path("free").path("nvidia.com/gpu").asText("0"));
            return free;
        }
        return -1;
    }

    /**
     * Why the copy has not started, or null while that is not known: the thawed agent either still saw the room
     * and admitted it (its pods then find no node: the fillers were bound first), or saw the fillers and keeps it
     * Pending. Which one is a race between the agent's watches; both must end in a withdrawal.
     */
    private static String notStarted(JsonNode workload) {
        if (workload == null) return null;
        JsonNode dispatch = workload.path("status").path("dispatch");
        String phase = dispatch.path("phase").asText();
        if ("Pending".equals(phase)) return "agent keeps it Pending: " + dispatch.path("reason").asText();
        if (!"Admitted".equals(phase)) return null;
        for (JsonNode problem : dispatch.path("podProblems")) {
            if ("Unschedulable".equals(problem.path("reason").asText())) {
                return "admitted, but pod " + problem.path("pod").asText() + " unschedulable: " + problem.path("message").asText();
            }
        }
        return null;
    }

    private static String dispatchedTo(JsonNode workload) {
        return workload == null ? null : workload.path("status").path("dispatch").path("cluster").asText(null);
    }

    /** The StartTimeout entry of the workload's dispatch history, or null. */
    private static String withdrawn(JsonNode workload) {
        if (workload == null) return null;
        for (JsonNode entry : workload.path("status").path("dispatchHistory")) {
            if ("StartTimeout".equals(entry.path("outcome").asText())) return entry.path("reason").asText();
        }
        return null;
    }
}
