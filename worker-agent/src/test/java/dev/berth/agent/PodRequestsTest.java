package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.boundPod;
import static dev.berth.agent.Fixtures.gpuNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pass snapshots with requests parsed once per pod version are the snapshots built from scratch. */
class PodRequestsTest {
    private final PodRequests podRequests = new PodRequests();
    private final List<Node> nodes = List.of(gpuNode("a100-1", A100, 8).build());

    private static Pod pod(String name, String gpus, String version) {
        Pod pod = boundPod(name, "a100-1", "nvidia.com/gpu", gpus);
        pod.getMetadata().setUid(name + "-uid");
        pod.getMetadata().setResourceVersion(version);
        return pod;
    }

    private static void setGpus(Pod pod, String gpus) {
        pod.getSpec().getContainers().get(0).getResources().getRequests().put("nvidia.com/gpu", new Quantity(gpus));
    }

    @Test
    void theSnapshotIsTheOneBuiltFromScratch() {
        List<Pod> pods = List.of(pod("p1", "2", "1"), pod("p2", "3", "1"), boundPod("no-version", "a100-1", "nvidia.com/gpu", "1"));

        assertThat(podRequests.snapshot(nodes, pods)).isEqualTo(ClusterSnapshot.of(nodes, pods));
        assertThat(podRequests.snapshot(nodes, pods)).isEqualTo(ClusterSnapshot.of(nodes, pods));
        assertThat(podRequests.snapshot(nodes, pods).nodes().get(0).free("nvidia.com/gpu")).isEqualTo(2);
    }

    @Test
    void aNewPodVersionIsParsedAgainAndAnUnchangedOneIsNot() {
        Pod pod = pod("p1", "2", "1");
        podRequests.snapshot(nodes, List.of(pod));

        setGpus(pod, "5");
        assertThat(podRequests.snapshot(nodes, List.of(pod)).nodes().get(0).free("nvidia.com/gpu"))
                .as("same version: parsed once").isEqualTo(6);
        pod.getMetadata().setResourceVersion("2");
        assertThat(podRequests.snapshot(nodes, List.of(pod)).nodes().get(0).free("nvidia.com/gpu")).isEqualTo(3);
    }

    @Test
    void aPodLeftOutOfASnapshotIsForgotten() {
        Pod pod = pod("p1", "2", "1");
        podRequests.snapshot(nodes, List.of(pod));
        podRequests.snapshot(nodes, List.of());

        setGpus(pod, "5");
        assertThat(podRequests.snapshot(nodes, List.of(pod)).nodes().get(0).free("nvidia.com/gpu")).isEqualTo(3);
    }
}
