package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cluster a workload that fits nowhere now waits on for capacity on request. */
class ScalablePlacementTest {
    private static final Instant NOW = Instant.parse("2026-12-02T07:00:00Z");
    private static final PlacementRequest EIGHT_GPUS_TWICE = new PlacementRequest(new WorkloadKey("team-a", "train"), 0,
            List.of(new PodSetDemand("main", 2, Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", "h100"))));

    @Test
    void theClusterNeedingFewestNewNodesIsChosenCountingWhatIsFreeNow() {
        var choice = ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(view("east"), view("west")), Map.of(
                "east", Map.of("h100", new ScalableCapacity("h100", 1, 4, Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", 0L))),
                "west", Map.of("h100", new ScalableCapacity("h100", 1, 4, Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", 8L)))));
        assertThat(choice).contains(new ScalablePlacement.Choice("west", 1));
    }

    @Test
    void resourcesTheNodeGroupDoesNotDeclareDoNotStopAScaleUp() {
        PlacementRequest withCpu = new PlacementRequest(new WorkloadKey("team-a", "train"), 0, List.of(new PodSetDemand("main", 2,
                Map.of("nvidia.com/gpu", 8L, "cpu", 1000L), Map.of("nvidia.com/gpu", "h100", "cpu", "h100"))));
        var scalable = Map.of("east", Map.of("h100", new ScalableCapacity("h100", 1, 3, Map.of("nvidia.com/gpu", 8L),
                Map.of("nvidia.com/gpu", 8L, "cpu", 4000L))));
        assertThat(ScalablePlacement.choose(withCpu, List.of(view("east")), scalable)).contains(new ScalablePlacement.Choice("east", 1));
    }

    @Test
    void noClusterWhenTheMaximumCannotHoldTheGangOrTheFlavorCannotGrow() {
        var tooSmall = Map.of("east", Map.of("h100", new ScalableCapacity("h100", 1, 2, Map.of("nvidia.com/gpu", 4L), Map.of())));
        assertThat(ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(view("east")), tooSmall)).isEmpty();
        var otherFlavor = Map.of("east", Map.of("a100", new ScalableCapacity("a100", 0, 8, Map.of("nvidia.com/gpu", 8L), Map.of())));
        assertThat(ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(view("east")), otherFlavor)).isEmpty();
    }

    @Test
    void aCordonedOrUnreachableClusterIsNotChosenEvenIfItCouldGrow() {
        var scalable = Map.of("east", Map.of("h100", new ScalableCapacity("h100", 0, 8, Map.of("nvidia.com/gpu", 8L), Map.of())));
        ClusterView cordoned = new ClusterView("east", true, true, NOW, Map.of());
        ClusterView unreachable = new ClusterView("east", true, false, NOW, Map.of(), ClusterHealth.UNREACHABLE, BreakerState.CLOSED);
        assertThat(ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(cordoned), scalable)).isEmpty();
        assertThat(ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(unreachable), scalable)).isEmpty();
        assertThat(ScalablePlacement.choose(EIGHT_GPUS_TWICE, List.of(view("east")), scalable)).contains(new ScalablePlacement.Choice("east", 2));
    }

    private static ClusterView view(String name) {
        return new ClusterView(name, true, false, NOW, Map.of());
    }
}
