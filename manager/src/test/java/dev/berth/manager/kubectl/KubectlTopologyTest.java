package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The real kubectl with Kueue's Topology kind (issue 18): discovery, apply of the example, table, explain, a refused change. */
@NeedsKubectl
class KubectlTopologyTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);

    @Test
    void theExampleTopologyIsAppliedListedExplainedAndItsLevelsKept() throws Exception {
        assertThat(kubectl.run("kubectl api-resources --api-group=kueue.x-k8s.io").ok().stdout())
                .containsPattern("topologies\\s+topo\\s+kueue.x-k8s.io/v1beta2\\s+false\\s+Topology");
        Path example = Path.of("..", "examples", "topology", "10-topology.yaml").toAbsolutePath();
        assertThat(kubectl.run("kubectl apply -f " + example).ok().stdout()).contains("topology.kueue.x-k8s.io/default created");
        assertThat(kubectl.run("kubectl get topo").ok().stdout()).containsPattern("default\\s+\\d+s");
        assertThat(kubectl.run("kubectl explain topology.spec.levels").ok().stdout()).contains("nodeLabel");

        Kubectl.Result refused = kubectl.run(java.util.List.of("patch", "topology", "default", "--type=json", "-p",
                "[{\"op\":\"remove\",\"path\":\"/spec/levels/2\"}]"));
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("spec.levels", "levels are mutable only when kubernetes.io/hostname is the lowest level");
        assertThat(kubectl.run("kubectl get topology default -o jsonpath={.spec.levels[2].nodeLabel}").ok().stdout())
                .isEqualTo("kubernetes.io/hostname");
    }
}
