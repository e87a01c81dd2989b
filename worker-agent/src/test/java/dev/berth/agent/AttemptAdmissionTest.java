package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.H100;
import static dev.berth.agent.Fixtures.a100;
import static dev.berth.agent.Fixtures.boundPod;
import static dev.berth.agent.Fixtures.flavor;
import static dev.berth.agent.Fixtures.gpuNode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.FlavorDefinition.TolerationSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AttemptAdmissionTest {
    /** Two A100 nodes with 8 GPUs; 6 and 4 in use: 6 free, at most 4 on one node. One H100 node, idle. */
    private static final ClusterSnapshot CLUSTER = ClusterSnapshot.of(
            List.of(gpuNode("a100-1", A100, 8).build(), gpuNode("a100-2", A100, 8).build(), gpuNode("h100-1", H100, 8).build()),
            List.of(boundPod("p1", "a100-1", "nvidia.com/gpu", "6"), boundPod("p2", "a100-2", "nvidia.com/gpu", "4")));

    private static final FlavorDefinition H100_TOLERATED = flavor("h100").label("nvidia.com/gpu.product", H100)
            .tolerate("nvidia.com/gpu", "Exists", null, "NoSchedule").build();
    private static final FlavorDefinition H100_UNTOLERATED = flavor("h100").label("nvidia.com/gpu.product", H100).build();
    private static final FlavorDefinition A100_WRONG_LABEL = flavor("a100").label("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-missing").build();
    private static final FlavorDefinition A100_ABSENT = flavor("a100").label("nvidia.com/gpu.product", A100).build();

    static PodDemand pods(String podSet, int count, long gpus, FlavorDefinition flavor, TolerationSpec... podTolerations) {
        return new PodDemand(podSet, count, Map.of("nvidia.com/gpu", gpus, "pods", 1L),
                NodeRequirement.of(List.of(flavor), List.of(podTolerations)));
    }

    static Stream<Arguments> cases() {
        ClusterSnapshot noA100 = ClusterSnapshot.of(List.of(gpuNode("h100-1", H100, 8).build()), List.of());
        return Stream.of(
                Arguments.of("fits in the free GPUs of two nodes", CLUSTER, List.of(pods("main", 3, 2, a100())), null),
                Arguments.of("a whole idle node", CLUSTER, List.of(pods("main", 1, 8, H100_TOLERATED)), null),
                Arguments.of("no node has the flavor's labels", noA100, List.of(pods("main", 1, 1, A100_ABSENT)),
                        "no node matches flavor a100 nodeLabels nvidia.com/gpu.product=NVIDIA-A100-SXM4-40GB"),
                Arguments.of("labels match nothing", CLUSTER, List.of(pods("main", 1, 1, A100_WRONG_LABEL)),
                        "no node matches flavor a100 nodeLabels nvidia.com/gpu.product=NVIDIA-A100-SXM4-40GB-missing"),
                Arguments.of("taint tolerated by neither flavor nor pod", CLUSTER, List.of(pods("main", 1, 1, H100_UNTOLERATED)),
                        "untolerated taint nvidia.com/gpu=present:NoSchedule in flavor h100"),
                Arguments.of("the pod's own toleration covers the taint", CLUSTER,
                        List.of(pods("main", 1, 1, H100_UNTOLERATED, new TolerationSpec("nvidia.com/gpu", "Equal", "present", "NoSchedule"))), null),
                Arguments.of("a toleration for another effect does not cover", CLUSTER,
                        List.of(pods("main", 1, 1, H100_UNTOLERATED, new TolerationSpec("nvidia.com/gpu", "Exists", null, "NoExecute"))),
                        "untolerated taint nvidia.com/gpu=present:NoSchedule in flavor h100"),
                Arguments.of("more GPUs than free in total", CLUSTER, List.of(pods("main", 1, 8, a100())),
                        "insufficient nvidia.com/gpu: 8 requested, 6 free on matching nodes"),
                Arguments.of("total requested counts every pod", CLUSTER, List.of(pods("main", 4, 2, a100())),
                        "insufficient nvidia.com/gpu: 8 requested, 6 free on matching nodes"),
                Arguments.of("enough in total but not on one node", CLUSTER, List.of(pods("main", 1, 5, a100())),
                        "insufficient nvidia.com/gpu: 5 requested per pod, at most 4 free on one matching node"),
                Arguments.of("all or nothing across pod sets", CLUSTER,
                        List.of(pods("driver", 1, 8, H100_TOLERATED), pods("workers", 4, 2, a100())),
                        "insufficient nvidia.com/gpu: 8 requested, 6 free on matching nodes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void admitsAllOrNothing(String behaviour, ClusterSnapshot cluster, List<PodDemand> demands, String expectedReason) {
        AdmissionResult result = AttemptAdmission.admit(cluster, demands);

        if (expectedReason == null) {
            assertThat(result).isInstanceOf(AdmissionResult.Fits.class);
        } else {
            assertThat(result).isEqualTo(new AdmissionResult.DoesNotFit(expectedReason));
        }
    }

    @org.junit.jupiter.api.Test
    void placedPodsUseCapacityOfTheSnapshotAfter() {
        var fits = (AdmissionResult.Fits) AttemptAdmission.admit(CLUSTER, List.of(pods("main", 1, 4, a100())));

        assertThat(fits.placements()).containsExactly("a100-2");
        assertThat(AttemptAdmission.admit(fits.after(), List.of(pods("main", 1, 4, a100()))))
                .isEqualTo(new AdmissionResult.DoesNotFit("insufficient nvidia.com/gpu: 4 requested, 2 free on matching nodes"));
    }

    @org.junit.jupiter.api.Test
    void unboundPodsOfAnAdmittedAttemptHoldCapacity() {
        List<PodDemand> admitted = List.of(pods("main", 3, 2, a100()));
        ClusterSnapshot reserved = UnboundPods.reserve(CLUSTER, admitted, List.of());

        assertThat(AttemptAdmission.admit(reserved, List.of(pods("main", 1, 1, a100()))).fits()).isFalse();
        assertThat(UnboundPods.remaining(admitted, 2)).singleElement().extracting(PodDemand::count).isEqualTo(1);
    }
}
