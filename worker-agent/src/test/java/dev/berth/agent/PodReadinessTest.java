package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The readiness the agent reports per attempt, from which the manager sets the Workload's PodsReady. */
class PodReadinessTest {
    static Pod pod(String name, String phase, String ready) {
        PodBuilder builder = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase(phase).endStatus();
        if (ready != null) builder.editStatus().addNewCondition().withType("Ready").withStatus(ready).endCondition().endStatus();
        return builder.build();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no pods yet", List.of(), 2, 0, false),
                Arguments.of("running but not ready yet", List.of(pod("a", "Running", "False"), pod("b", "Running", "False")), 2, 0, false),
                Arguments.of("a gang with one pod unschedulable", List.of(pod("a", "Running", "True"), pod("b", "Pending", null)), 2, 1, false),
                Arguments.of("every pod ready", List.of(pod("a", "Running", "True"), pod("b", "Running", "True")), 2, 2, true),
                Arguments.of("ready plus succeeded count as Kueue's Job adapter counts them",
                        List.of(pod("a", "Running", "True"), pod("b", "Succeeded", "False")), 2, 2, true),
                Arguments.of("a failed pod is not ready", List.of(pod("a", "Running", "True"), pod("b", "Failed", "False")), 2, 1, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsReadyPodsAndWhetherAllAdmittedPodsAreReady(String name, List<Pod> pods, int expected, int ready, boolean all) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        PodReadiness.report(status, pods, expected);
        assertThat(status.getPodsReady()).isEqualTo(ready);
        assertThat(status.getAllPodsReady()).isEqualTo(all);
    }
}
