package dev.berth.manager.objects;

import dev.berth.protocol.Labels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NamespaceDecoderTest {

    private static Map<String, String> labels(String metadata) {
        return NamespaceDecoder.labels(Yaml.parse("apiVersion: v1\nkind: Namespace\nmetadata: " + metadata));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("a namespace without labels still carries its name label", "{name: team-a}",
                        Map.of(Labels.NAMESPACE_NAME, "team-a")),
                arguments("labels with and without a prefix are kept", "{name: team-a, labels: {team: a, example.com/tier: gold, empty: ''}}",
                        Map.of(Labels.NAMESPACE_NAME, "team-a", "team", "a", "example.com/tier", "gold", "empty", "")),
                arguments("the name label cannot be overridden", "{name: team-a, labels: {kubernetes.io/metadata.name: other}}",
                        Map.of(Labels.NAMESPACE_NAME, "team-a")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, String metadata, Map<String, String> expected) {
        assertThat(labels(metadata)).isEqualTo(expected);
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("a namespace name is a DNS label", "{name: team.a}",
                        "metadata.name", "Invalid value: \"team.a\": a lowercase RFC 1123 label"),
                arguments("a namespace name is at most 63 characters", "{name: " + "a".repeat(64) + "}",
                        "metadata.name", "Invalid value: \"" + "a".repeat(64) + "\": must be no more than 63 characters"),
                arguments("a namespace needs a name", "{labels: {a: b}}", "metadata.name", "Required value"),
                arguments("a label prefix is a DNS subdomain", "{name: a, labels: {Example.com/tier: gold}}",
                        "metadata.labels", "Invalid value: \"Example.com/tier\": prefix part a lowercase RFC 1123 subdomain"),
                arguments("a label key has at most one slash", "{name: a, labels: {a/b/c: x}}",
                        "metadata.labels", "Invalid value: \"a/b/c\": a qualified name must consist of"),
                arguments("a label name part is at most 63 characters", "{name: a, labels: {" + "k".repeat(64) + ": x}}",
                        "metadata.labels", "Invalid value: \"" + "k".repeat(64) + "\": name part must be no more than 63 characters"),
                arguments("a label value is at most 63 characters", "{name: a, labels: {k: " + "v".repeat(64) + "}}",
                        "metadata.labels", "Invalid value: \"" + "v".repeat(64) + "\": must be no more than 63 characters"),
                arguments("a label value is a string", "{name: a, labels: {k: 1}}",
                        "metadata.labels[k]", "Invalid value: \"integer\": must be of type string"),
                arguments("labels are a map", "{name: a, labels: [a]}",
                        "metadata.labels", "Invalid value: \"array\": must be of type object"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, String metadata, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(() -> labels(metadata));
        assertThat(causes).as(Yaml.describe(causes)).anySatisfy(cause -> {
            assertThat(cause.field()).isEqualTo(field);
            assertThat(cause.message()).startsWith(message);
        });
    }
}
