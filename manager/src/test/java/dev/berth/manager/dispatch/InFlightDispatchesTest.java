package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InFlightDispatchesTest {
    private static final String GPU = "nvidia.com/gpu";

    private static ClusterView cluster(long free, long largest) {
        return new ClusterView("a100-ondemand", true, false, Instant.parse("2026-01-01T00:00:00Z"),
                Map.of("a100", new FlavorCapacity("a100", Map.of(GPU, free), Map.of(GPU, largest))));
    }

    private static PlacementRequest gpus(int pods, long perPod) {
        return new PlacementRequest(WorkloadKey.of("team-a", "w"), 0,
                List.of(new PodSetDemand("main", pods, Map.of(GPU, perPod), Map.of(GPU, "a100"))));
    }

    @Test
    void nothingInFlightLeavesTheReportAsItIs() {
        ClusterView view = cluster(16, 8);
        assertThat(InFlightDispatches.withoutInFlight(view, List.of())).isSameAs(view);
    }

    @Test
    void aDispatchNotYetReportedIsTakenOffFreeCapacity() {
        FlavorCapacity a100 = InFlightDispatches.withoutInFlight(cluster(16, 8), List.of(gpus(2, 6))).flavors().get("a100");
        assertThat(a100.free(GPU)).isEqualTo(4);
        assertThat(a100.largestOnOneNode(GPU)).isEqualTo(4);
    }

    @Test
    void freeCapacityNeverGoesBelowZero() {
        FlavorCapacity a100 = InFlightDispatches.withoutInFlight(cluster(4, 4), List.of(gpus(1, 8))).flavors().get("a100");
        assertThat(a100.free(GPU)).isZero();
        assertThat(a100.largestOnOneNode(GPU)).isZero();
    }

    @Test
    void aFlavorTheClusterLacksIsIgnored() {
        PlacementRequest h100 = new PlacementRequest(WorkloadKey.of("team-a", "w"), 0,
                List.of(new PodSetDemand("main", 1, Map.of(GPU, 8L), Map.of(GPU, "h100"))));
        assertThat(InFlightDispatches.withoutInFlight(cluster(16, 8), List.of(h100)).flavors()).containsOnlyKeys("a100");
    }
}
