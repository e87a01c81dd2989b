package dev.berth.manager.objects;

import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.StopPolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class LocalQueueDecoderTest {

    private static LocalQueueSpec decode(String yaml) {
        return LocalQueueDecoder.decode(Yaml.parse("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n" + yaml));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("stopPolicy defaults to None", "metadata: {name: main, namespace: team-a}\nspec: {clusterQueue: cq}",
                        new LocalQueueSpec("team-a", "main", "cq", StopPolicy.NONE)),
                arguments("stopPolicy Hold is kept", "metadata: {name: main, namespace: team-a}\nspec: {clusterQueue: cq, stopPolicy: Hold}",
                        new LocalQueueSpec("team-a", "main", "cq", StopPolicy.HOLD)),
                arguments("fairSharing.weight is read as a quantity", "metadata: {name: main, namespace: team-a}\nspec: {clusterQueue: cq, fairSharing: {weight: 500m}}",
                        new LocalQueueSpec("team-a", "main", "cq", StopPolicy.NONE, 0.5)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, String yaml, LocalQueueSpec expected) {
        assertThat(decode(yaml)).isEqualTo(expected);
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("the namespace is required", "metadata: {name: main}\nspec: {clusterQueue: cq}",
                        "metadata.namespace", "Required value"),
                arguments("the namespace is a DNS label", "metadata: {name: main, namespace: team.a}\nspec: {clusterQueue: cq}",
                        "metadata.namespace", "Invalid value: \"team.a\": a lowercase RFC 1123 label"),
                arguments("the cluster queue is required", "metadata: {name: main, namespace: team-a}\nspec: {}",
                        "spec.clusterQueue", "Required value"),
                arguments("the cluster queue is a string", "metadata: {name: main, namespace: team-a}\nspec: {clusterQueue: [cq]}",
                        "spec.clusterQueue", "Invalid value: \"array\": must be of type string"),
                arguments("unknown stop policy", "metadata: {name: main, namespace: team-a}\nspec: {clusterQueue: cq, stopPolicy: Stop}",
                        "spec.stopPolicy", "Unsupported value: \"Stop\": supported values: \"None\", \"Hold\", \"HoldAndDrain\""),
                arguments("the name is required", "metadata: {namespace: team-a}\nspec: {clusterQueue: cq}",
                        "metadata.name", "Required value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, String yaml, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(() -> decode(yaml));
        assertThat(causes).as(Yaml.describe(causes)).anySatisfy(cause -> {
            assertThat(cause.field()).isEqualTo(field);
            assertThat(cause.message()).startsWith(message);
        });
    }
}
