package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterProfileTest {

    @Test
    void parsesGpuAndCpuPools() {
        ClusterProfile profile = ClusterProfile.parse("a100:3x8, h100:2x4,cpu:2");

        assertThat(profile.pools()).containsExactly(
            new NodePool("a100", "NVIDIA-A100-SXM4-40GB", "p4d.24xlarge", 3, 8),
            new NodePool("h100", "NVIDIA-H100-80GB-HBM3", "p5.48xlarge", 2, 4),
            new NodePool("cpu", null, "m5.8xlarge", 2, 0));
    }

    @Test
    void spotPoolsCarryTheLifecycleLabel() {
        var nodes = ClusterProfile.parse("h100:1x8").pools().get(0).toNodes("c", true);

        assertThat(nodes).singleElement().satisfies(n -> {
            assertThat(n.getMetadata().getName()).isEqualTo("c-h100-0");
            assertThat(n.getMetadata().getLabels()).containsEntry("node-lifecycle", "spot");
        });
    }

    @Test
    void rejectsUnknownTypesAndMalformedSizes() {
        assertThatThrownBy(() -> ClusterProfile.parse("v100:1x8")).hasMessageContaining("unknown node type 'v100'");
        assertThatThrownBy(() -> ClusterProfile.parse("a100:3")).hasMessageContaining("<nodes>x<gpusPerNode>");
        assertThatThrownBy(() -> ClusterProfile.parse("cpu:two")).hasMessageContaining("not a number");
    }

    @Test
    void simulatedRuntimeAcceptsIsoDurationsAndSeconds() {
        assertThat(SimulatedRun.parseRuntime("PT0.5S")).isEqualTo(Duration.ofMillis(500));
        assertThat(SimulatedRun.parseRuntime("3")).isEqualTo(Duration.ofSeconds(3));
        assertThat(SimulatedRun.parseRuntime("1.25")).isEqualTo(Duration.ofMillis(1250));
        assertThat(SimulatedRun.parseRuntime(null)).isEqualTo(Duration.ofSeconds(2));
    }
}
