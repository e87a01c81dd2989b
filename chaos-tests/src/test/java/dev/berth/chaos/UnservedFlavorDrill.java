package dev.berth.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsDocker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Drill 8 (issue 20, rule 2): quota held in a flavor that no worker cluster serves.
 *
 * <p>Two A100 sites; a second ClusterQueue lends H100 quota that no site can run. Two H100 jobs
 * queue there: the first reserves all the H100 quota, the second waits behind it. The fault is the
 * missing flavor itself. Detection: the first workload's quota is released (its MultiKueue check
 * turned Retry) after --unserved-flavor-timeout. Then an H100 site joins mid-drill, registered and
 * added to the MultiKueueConfig as an operator would; recovery is when both H100 jobs have finished
 * there. A100 jobs run meanwhile on the other queue, untouched.
 */
@Order(8)
@NeedsDocker
class UnservedFlavorDrill {
    static final String INVARIANT = "Quota held in a flavor no connected cluster offers is released after the timeout; once a cluster"
            + " with that flavor joins, every workload runs there exactly once.";
    static final String DRILL = "unserved-flavor";
    static final String TIMEOUT = "20s";
    static final String H100_QUEUE = "h100-queue";
    static final String H100_PRODUCT = "NVIDIA-H100-80GB-HBM3";

    @Test
    void quotaIsReleasedAndTheWorkloadRunsOnceAClusterWithTheFlavorJoins() {
        DrillSetup setup = DrillSetup.twoSites().withManagerFlags(List.of(
                "--unserved-flavor-timeout", TIMEOUT, "--unserved-flavor-retry-backoff", "5s"));
        DrillTimeline timeline = new DrillTimeline();
        try (DrillEnvironment env = DrillEnvironment.start(DRILL, setup)) {
            h100Queue(env.api());
            assertThat(env.submit("a100-steady", 8, "PT20S")).isTrue();
            assertThat(submitH100(env, "h100-first")).isTrue();
            await().atMost(DrillEnvironment.PATIENCE).until(() -> "True".equals(ManagerApi.condition(env.workloadOf("h100-first"), "QuotaReserved")));
            timeline.fault();
            assertThat(submitH100(env, "h100-second")).isTrue();
            env.say("h100-first holds the H100 quota; no site offers h100");

            JsonNode released = await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(250))
                    .until(() -> env.workloadOf("h100-first"), w -> "True".equals(ManagerApi.condition(w, "Evicted")));
            timeline.detected();
            String message = released.path("status").path("admissionChecks").path(0).path("message").asText();
            env.say("quota released: " + message);
            timeline.note("checkMessage", message);
            assertThat(message).startsWith("no connected worker cluster offers flavor h100 (worker-1, worker-2 offer a100)");
            await().atMost(DrillEnvironment.PATIENCE).until(() -> "True".equals(ManagerApi.condition(env.workloadOf("h100-second"), "QuotaReserved")));
            env.say("h100-second took the released quota");
            timeline.note("secondTookQuota", true);

            env.addSite("worker-h100", "h100:1x8");
            env.api().mergePatch(ManagerApi.KUEUE + "/multikueueconfigs/chaos-clusters",
                    "{\"spec\":{\"clusters\":[\"worker-1\",\"worker-2\",\"worker-h100\"]}}");
            env.awaitClustersActive();
            timeline.note("h100SiteActiveAfterSeconds", timeline.faultAt() == null ? null
                    : Duration.between(timeline.faultAt(), java.time.Instant.now()).toMillis() / 1000.0);
            env.say("worker-h100 joined");

            env.awaitAllFinished(Duration.ofMinutes(4));
            timeline.recovered();
            for (String job : List.of("h100-first", "h100-second")) {
                assertThat(DrillEnvironment.clusterOf(env.workloadOf(job))).as(job).isEqualTo("worker-h100");
            }
            DrillVerdict verdict = env.verdict();
            DrillReport.write(DRILL, INVARIANT, timeline, verdict);
            assertThat(verdict.violations()).isEmpty();
        }
    }

    /** The H100 flavor, and a ClusterQueue with 8 H100 GPUs behind the same MultiKueue check, with its LocalQueue. */
    private static void h100Queue(ManagerApi api) {
        api.create(ManagerApi.KUEUE + "/resourceflavors", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"h100"},
                 "spec":{"nodeLabels":{"nvidia.com/gpu.product":"%s"},
                         "nodeTaints":[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}],
                         "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]}}""".formatted(H100_PRODUCT));
        api.create(ManagerApi.KUEUE + "/clusterqueues", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"h100-cq"},
                 "spec":{"namespaceSelector":{"matchLabels":{"team":"chaos"}},
                         "resourceGroups":[{"coveredResources":["cpu","memory","nvidia.com/gpu"],
                           "flavors":[{"name":"h100","resources":[{"name":"cpu","nominalQuota":"64"},
                             {"name":"memory","nominalQuota":"512Gi"},{"name":"nvidia.com/gpu","nominalQuota":"8"}]}]}],
                         "admissionChecksStrategy":{"admissionChecks":[{"name":"multikueue"}]}}}""");
        api.create(ManagerApi.KUEUE + "/namespaces/" + ChaosQueues.NAMESPACE + "/localqueues", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"clusterQueue":"h100-cq"}}""".formatted(H100_QUEUE, ChaosQueues.NAMESPACE));
    }

    /** An 8-GPU H100 job of 20 s, remembered by the environment when acknowledged. */
    private static boolean submitH100(DrillEnvironment env, String job) {
        String yaml = ChaosQueues.job(job, 8, "PT20S").replace("queue-name: " + ChaosQueues.LOCAL_QUEUE, "queue-name: " + H100_QUEUE)
                .replace(ChaosQueues.GPU_PRODUCT, H100_PRODUCT);
        return env.submitYaml(job, yaml);
    }
}
