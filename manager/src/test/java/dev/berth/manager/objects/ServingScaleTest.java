package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.ServingScale.Action;
import dev.berth.protocol.ServingKind;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a change of replicas does to a serving object's Workload, one row a rule (Kueue's statefulset webhook and reconciler). */
class ServingScaleTest {
    static Stream<Arguments> decisions() {
        return Stream.of(
                Arguments.of("unchanged counts leave the Workload alone", 2, true, List.of(2), List.of(2), Action.NONE),
                Arguments.of("scaled to zero: the Workload goes and its quota with it", 0, true, List.of(2), List.of(0), Action.RELEASE),
                Arguments.of("at zero without a Workload nothing happens", 0, false, List.of(), List.of(0), Action.NONE),
                Arguments.of("scaled up from zero: a new Workload is queued", 2, false, List.of(), List.of(2), Action.ADMIT),
                Arguments.of("resized: the Workload is replaced and admitted again", 3, true, List.of(2), List.of(3), Action.READMIT),
                Arguments.of("a LeaderWorkerSet's group size counts too", 1, true, List.of(1, 2), List.of(1, 3), Action.READMIT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisions")
    void decide(String behaviour, int replicas, boolean hasWorkload, List<Integer> current, List<Integer> wanted, Action expected) {
        assertThat(ServingScale.decide(replicas, hasWorkload, current, wanted)).as(behaviour).isEqualTo(expected);
    }

    private static ObjectNode sized(ServingKind kind, int replicas) {
        return yaml("{apiVersion: " + kind.apiVersion() + ", kind: " + kind.kind() + ", metadata: {name: s}, spec: {replicas: " + replicas + "}}");
    }

    @Test
    void aStatefulSetResizedBetweenNonZeroSizesIsRefusedNamingSpecReplicas() {
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class,
                () -> ServingScale.checkUpdate(ServingKind.STATEFUL_SET, sized(ServingKind.STATEFUL_SET, 2), sized(ServingKind.STATEFUL_SET, 3)));

        assertThat(refused).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).containsExactly("spec.replicas");
    }

    @Test
    void aStatefulSetScalesToAndFromZeroAndOtherKindsResizeFreely() {
        assertThatCode(() -> ServingScale.checkUpdate(ServingKind.STATEFUL_SET, sized(ServingKind.STATEFUL_SET, 2), sized(ServingKind.STATEFUL_SET, 0)))
                .doesNotThrowAnyException();
        assertThatCode(() -> ServingScale.checkUpdate(ServingKind.STATEFUL_SET, sized(ServingKind.STATEFUL_SET, 0), sized(ServingKind.STATEFUL_SET, 4)))
                .doesNotThrowAnyException();
        assertThatCode(() -> ServingScale.checkUpdate(ServingKind.DEPLOYMENT, sized(ServingKind.DEPLOYMENT, 2), sized(ServingKind.DEPLOYMENT, 3)))
                .doesNotThrowAnyException();
        assertThatCode(() -> ServingScale.checkUpdate(ServingKind.LEADER_WORKER_SET, sized(ServingKind.LEADER_WORKER_SET, 1),
                sized(ServingKind.LEADER_WORKER_SET, 2))).doesNotThrowAnyException();
    }
}
