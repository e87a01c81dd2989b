package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.a100;
import static dev.berth.agent.Fixtures.boundPod;
import static dev.berth.agent.Fixtures.gpuNode;
import static dev.berth.agent.TopologyFixtures.LEVELS;
import static dev.berth.agent.TopologyFixtures.a100WithTopology;
import static dev.berth.agent.TopologyFixtures.topologyNode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.CapacityReport.FlavorCapacity;
import dev.berth.protocol.crd.TopologyCapacity;
import dev.berth.protocol.crd.TopologyCapacity.NodeCapacity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyCapacityCalculatorTest {
    private final ClusterSnapshot cluster = ClusterSnapshot.of(
            List.of(topologyNode("n1", "b1", "b1-r1", 8), topologyNode("n2", "b1", "b1-r2", 8),
                    gpuNode("unlabelled", A100, 8).build()),
            List.of(boundPod("p1", "n1", "nvidia.com/gpu", "6")));

    @Test
    void flavorWithTopologyReportsEveryLabelledNodeWithItsLevelValuesAndFreeResources() {
        FlavorCapacity capacity = CapacityCalculator.flavorCapacity(cluster, a100WithTopology());

        TopologyCapacity topology = capacity.getTopology();
        assertThat(topology.getTopologyName()).isEqualTo("default");
        assertThat(topology.getLevels()).isEqualTo(LEVELS);
        assertThat(topology.getNodes()).extracting(NodeCapacity::getValues)
                .containsExactly(List.of("b1", "b1-r1", "n1"), List.of("b1", "b1-r2", "n2"));
        assertThat(topology.getNodes().get(0).getFree()).containsEntry("nvidia.com/gpu", "2").containsEntry("pods", "109");
        assertThat(topology.getNodes().get(1).getFree()).containsEntry("nvidia.com/gpu", "8").containsEntry("cpu", "64");
        assertThat(capacity.getNodes()).as("the flavor totals still count the node without topology labels").isEqualTo(3);
    }

    @Test
    void flavorWithoutTopologyHasNoTopologyAndSerializesAsBefore() {
        FlavorCapacity capacity = CapacityCalculator.flavorCapacity(cluster, a100());

        assertThat(capacity.getTopology()).isNull();
        assertThat(new KubernetesSerialization().asJson(capacity)).doesNotContain("topology");
    }

    @Test
    void cordonedNodesAndNodesOfOtherFlavorsAreLeftOut() {
        var cordoned = topologyNode("n3", "b2", "b2-r1", 8);
        cordoned.getSpec().setUnschedulable(true);
        var h100 = gpuNode("h1", Fixtures.H100, 8).label(TopologyFixtures.BLOCK, "b3").label(TopologyFixtures.RACK, "b3-r1")
                .label(TopologyFixtures.HOSTNAME, "h1").build();
        ClusterSnapshot snapshot = ClusterSnapshot.of(List.of(topologyNode("n1", "b1", "b1-r1", 8), cordoned, h100), List.of());

        assertThat(TopologyCapacityCalculator.of(snapshot, a100WithTopology()).orElseThrow().getNodes())
                .extracting(NodeCapacity::getValues).containsExactly(List.of("b1", "b1-r1", "n1"));
    }

    @Test
    void heartbeatReportRoundTripsTheTopologyThroughJson() {
        CapacityReport report = CapacityCalculator.report(cluster, List.of(a100WithTopology()), Instant.EPOCH, "test");
        KubernetesSerialization json = new KubernetesSerialization();

        CapacityReport read = json.unmarshal(json.asJson(report), CapacityReport.class);

        assertThat(read.getFlavors().get(0).getTopology().getNodes()).hasSize(2);
        assertThat(read.getFlavors().get(0).getTopology().getNodes().get(0).getValues()).containsExactly("b1", "b1-r1", "n1");
    }
}
