package dev.berth.manager.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceQuota;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Quota against capacity: quota summed over ClusterQueues and cohorts, capacity over the healthy
 * clusters only, over-commitment and capacity no quota covers; and the explanation's verdict on
 * whether quota or capacity holds a workload back.
 */
class QuotaAgainstCapacityTest {
    private static final String GPU = "nvidia.com/gpu";
    private static final FlavorResource A100 = new FlavorResource("a100", GPU);
    private static final FlavorResource SPOT = new FlavorResource("a100-spot", GPU);

    private static final QuotaSnapshot QUOTA = new QuotaSnapshot(
            List.of(new QuotaSnapshot.CohortNode("gpu-pool", null, Map.of(A100, new ResourceQuota(GPU, 4, null, null)))),
            List.of(new QuotaSnapshot.QueueQuota("team-a-cq", "gpu-pool", Map.of(A100, new ResourceQuota(GPU, 8, null, null)), Map.of(A100, 8L), 2),
                    new QuotaSnapshot.QueueQuota("team-b-cq", "gpu-pool", Map.of(A100, new ResourceQuota(GPU, 8, null, null)), Map.of(A100, 6L), 0)));

    private static WorkerClusterRow cluster(String name, String health, String flavor, String allocatable, String free) {
        return new WorkerClusterRow(name, true, null, null, health, null,
                List.of(new WorkerClusterRow.FlavorRow(flavor, 2, Map.of(GPU, allocatable), Map.of(GPU, free))), List.of());
    }

    @Test
    void quotaIsSummedOverQueuesAndCohortsAndCapacityOverHealthyClustersOnly() {
        List<QuotaAgainstCapacity.Row> rows = QuotaAgainstCapacity.of(QUOTA, List.of(
                cluster("east", WorkerClusterRow.HEALTHY, "a100", "16", "2"),
                cluster("west", WorkerClusterRow.UNREACHABLE, "a100", "16", "16"),
                cluster("spot", WorkerClusterRow.HEALTHY, "a100-spot", "16", "16")));

        assertThat(rows).containsExactly(
                new QuotaAgainstCapacity.Row("a100", GPU, 20, 14, 16, 2, 1),
                new QuotaAgainstCapacity.Row("a100-spot", GPU, 0, 0, 16, 16, 1));
        assertThat(rows.get(0).overcommitted()).as("20 GPUs of quota over 16 healthy").isTrue();
        assertThat(rows.get(0).idleBeyondQuota()).as("2 free, 6 of quota unused: all free capacity is covered").isZero();
        assertThat(rows.get(1).overcommitted()).isFalse();
        assertThat(rows.get(1).idleBeyondQuota()).as("no quota names a100-spot").isEqualTo(16);
    }

    @Test
    void theVerdictSaysWhetherQuotaOrCapacityHoldsItBack() {
        List<QuotaAgainstCapacity.Row> rows = QuotaAgainstCapacity.of(QUOTA, List.of(
                cluster("east", WorkerClusterRow.HEALTHY, "a100", "16", "0"),
                cluster("spot", WorkerClusterRow.HEALTHY, "a100-spot", "16", "16")));

        assertThat(QuotaAgainstCapacity.verdict(rows, GPU, 4))
                .isEqualTo("; the fleet has 16 nvidia.com/gpu idle (a100-spot 16): quota, not capacity, holds it back");
        assertThat(QuotaAgainstCapacity.verdict(rows, GPU, 20)).isEqualTo("; the fleet has only 16 nvidia.com/gpu free: capacity is short too");
        assertThat(QuotaAgainstCapacity.verdict(QuotaAgainstCapacity.of(QUOTA, List.of()), GPU, 4))
                .as("no cluster reports the resource: nothing to compare with").isEmpty();
    }
}
