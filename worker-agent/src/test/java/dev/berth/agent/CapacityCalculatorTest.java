package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.H100;
import static dev.berth.agent.Fixtures.a100;
import static dev.berth.agent.Fixtures.boundPod;
import static dev.berth.agent.Fixtures.flavor;
import static dev.berth.agent.Fixtures.gpuNode;
import static dev.berth.agent.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.CapacityReport.FlavorCapacity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityCalculatorTest {
    private final ClusterSnapshot cluster = ClusterSnapshot.of(
            List.of(gpuNode("a100-1", A100, 8).build(), gpuNode("a100-2", A100, 8).build(), gpuNode("h100-1", H100, 8).build(),
                    node("cpu-1").allocatable("cpu", "16").allocatable("memory", "64Gi").build()),
            List.of(boundPod("p1", "a100-1", "nvidia.com/gpu", "6"), boundPod("p2", "a100-2", "nvidia.com/gpu", "4")));

    @Test
    void flavorCountsNodesWithItsLabelsAndToleratedTaints() {
        FlavorCapacity capacity = CapacityCalculator.flavorCapacity(cluster, a100());

        assertThat(capacity.getName()).isEqualTo("a100");
        assertThat(capacity.getNodes()).isEqualTo(2);
        assertThat(capacity.getAllocatable()).containsEntry("nvidia.com/gpu", "16").containsEntry("cpu", "128").containsEntry("memory", "1Ti");
        assertThat(capacity.getFree()).containsEntry("nvidia.com/gpu", "6").containsEntry("pods", "218");
        assertThat(capacity.getLargestFreeOnOneNode()).containsEntry("nvidia.com/gpu", "4");
    }

    @Test
    void untoleratedTaintLeavesNodesOut() {
        FlavorCapacity capacity = CapacityCalculator.flavorCapacity(cluster, flavor("h100").label("nvidia.com/gpu.product", H100).build());

        assertThat(capacity.getNodes()).isZero();
        assertThat(capacity.getFree()).isEmpty();
    }

    @Test
    void flavorWithoutLabelsMatchesUntaintedNodes() {
        FlavorCapacity capacity = CapacityCalculator.flavorCapacity(cluster, flavor("default").build());

        assertThat(capacity.getNodes()).isEqualTo(1);
        assertThat(capacity.getFree()).isEqualTo(Map.of("cpu", "16", "memory", "64Gi"));
    }

    @Test
    void terminatedPodsFreeTheirNode() {
        var done = boundPod("done", "a100-1", "nvidia.com/gpu", "8");
        done.getStatus().setPhase("Succeeded");
        ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(gpuNode("a100-1", A100, 8).build()), List.of(done));

        assertThat(CapacityCalculator.flavorCapacity(snapshot, a100()).getFree()).containsEntry("nvidia.com/gpu", "8");
    }

    @Test
    void reportListsEveryFlavorOfTheCatalogue() {
        CapacityReport report = CapacityCalculator.report(cluster, List.of(a100(), flavor("default").build()), Instant.parse("2026-01-01T00:00:00Z"), "test");

        assertThat(report.getFlavors()).extracting(FlavorCapacity::getName).containsExactly("a100", "default");
        assertThat(report.getTime()).isEqualTo("2026-01-01T00:00:00Z");
    }
}
