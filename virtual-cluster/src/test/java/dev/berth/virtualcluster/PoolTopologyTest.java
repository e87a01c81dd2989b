package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolTopologyTest {

    @Test
    void profileLaysOutBlocksOfRacksOfNodes() {
        NodePool pool = ClusterProfile.parse("h100:2b2r2x8,cpu:1").pools().get(0);

        assertThat(pool.nodes()).isEqualTo(8);
        assertThat(pool.gpusPerNode()).isEqualTo(8);
        assertThat(pool.topology()).isEqualTo(new PoolTopology(2, 2, 2));
    }

    @Test
    void nodesCarryKueueDocumentedBlockRackAndHostnameLabels() {
        List<Node> nodes = ClusterProfile.parse("h100:2b2r2x8").pools().get(0).toNodes("c", false);

        assertThat(nodes).extracting(n -> n.getMetadata().getLabels().get(PoolTopology.BLOCK_LABEL) + "/"
                + n.getMetadata().getLabels().get(PoolTopology.RACK_LABEL) + "/"
                + n.getMetadata().getLabels().get(PoolTopology.HOSTNAME_LABEL))
            .containsExactly("block-1/rack-1/c-h100-0", "block-1/rack-1/c-h100-1", "block-1/rack-2/c-h100-2",
                "block-1/rack-2/c-h100-3", "block-2/rack-3/c-h100-4", "block-2/rack-3/c-h100-5",
                "block-2/rack-4/c-h100-6", "block-2/rack-4/c-h100-7");
        assertThat(nodes.get(0).getStatus().getAllocatable().get("nvidia.com/gpu").getAmount()).isEqualTo("8");
    }

    @Test
    void poolsWithoutTopologyHaveNoBlockOrRackLabel() {
        Map<String, String> labels = ClusterProfile.parse("a100:1x8").pools().get(0).toNodes("c", false).get(0).getMetadata().getLabels();

        assertThat(labels).doesNotContainKeys(PoolTopology.BLOCK_LABEL, PoolTopology.RACK_LABEL);
        assertThat(ClusterProfile.parse("a100:1x8").pools().get(0).topology()).isNull();
    }

    @Test
    void rejectsEmptyTopologies() {
        assertThatThrownBy(() -> ClusterProfile.parse("a100:0b2r2x8")).hasMessageContaining("at least one block");
        assertThatThrownBy(() -> ClusterProfile.parse("a100:2b2rx8")).hasMessageContaining("not a number");
    }
}
