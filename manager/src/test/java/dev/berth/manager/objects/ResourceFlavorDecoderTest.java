package dev.berth.manager.objects;

import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.Taint;
import dev.berth.manager.model.Toleration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ResourceFlavorDecoderTest {

    private static ResourceFlavor decode(String spec) {
        return ResourceFlavorDecoder.decode(Yaml.object("ResourceFlavor", "spot", spec));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("an empty spec is a flavor that matches every node", "{}", ResourceFlavor.named("spot")),
                arguments("node labels, taints and tolerations are kept", """
                        nodeLabels:
                          cloud.example.com/spot: "true"
                          instance-type: a100
                        nodeTaints:
                        - {key: spot, value: "true", effect: NoSchedule}
                        tolerations:
                        - {key: HasGPU, operator: Exists, effect: NoSchedule}
                        - {key: zone, operator: Equal, value: a}
                        """,
                        new ResourceFlavor("spot", Map.of("cloud.example.com/spot", "true", "instance-type", "a100"),
                                List.of(new Taint("spot", "true", "NoSchedule")),
                                List.of(new Toleration("HasGPU", "Exists", null, "NoSchedule"),
                                        new Toleration("zone", "Equal", "a", null)))),
                arguments("a toleration without operator means Equal", "tolerations: [{key: zone, value: a}]",
                        new ResourceFlavor("spot", Map.of(), List.of(), List.of(new Toleration("zone", "Equal", "a", null)))),
                arguments("an empty key with Exists tolerates everything", "tolerations: [{operator: Exists}]",
                        new ResourceFlavor("spot", Map.of(), List.of(), List.of(new Toleration(null, "Exists", null, null)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, String spec, ResourceFlavor expected) {
        assertThat(decode(spec)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "absent spec is allowed")
    @MethodSource("noSpec")
    void acceptsAbsentSpec(String yaml) {
        assertThat(ResourceFlavorDecoder.decode(Yaml.parse(yaml))).isEqualTo(ResourceFlavor.named("default-flavor"));
    }

    static Stream<String> noSpec() {
        return Stream.of("kind: ResourceFlavor\nmetadata: {name: default-flavor}",
                "kind: ResourceFlavor\nmetadata: {name: default-flavor}\nspec: null");
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("taint effect is one of three", "nodeTaints: [{key: a, effect: Never}]", "spec.nodeTaints[0].effect",
                        "Unsupported value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""),
                arguments("taint effect is required", "nodeTaints: [{key: a}]", "spec.nodeTaints[0].effect", "Required value"),
                arguments("taint key is required", "nodeTaints: [{effect: NoSchedule}]", "spec.nodeTaints[0].key", "Required value"),
                arguments("taint key is a qualified name", "nodeTaints: [{key: 'a b', effect: NoSchedule}]",
                        "spec.nodeTaints[0].key", "Invalid value: \"a b\": name part must consist of alphanumeric characters"),
                arguments("toleration operator is Exists or Equal", "tolerations: [{key: a, operator: In}]",
                        "spec.tolerations[0].operator", "Unsupported value: \"In\": supported values: \"Exists\", \"Equal\""),
                arguments("Exists takes no value", "tolerations: [{key: a, operator: Exists, value: b}]",
                        "spec.tolerations[0].value", "Invalid value: \"b\": value must be empty when `operator` is 'Exists'"),
                arguments("an empty key needs Exists", "tolerations: [{value: b}]",
                        "spec.tolerations[0].operator", "Invalid value: \"\": operator must be Exists when `key` is empty"),
                arguments("toleration effect is one of three", "tolerations: [{key: a, operator: Exists, effect: Always}]",
                        "spec.tolerations[0].effect", "Unsupported value: \"Always\""),
                arguments("node label keys follow label syntax", "nodeLabels: {'-bad': x}",
                        "spec.nodeLabels", "Invalid value: \"-bad\": name part must consist of alphanumeric characters"),
                arguments("node label values are strings", "nodeLabels: {a: {b: c}}",
                        "spec.nodeLabels[a]", "Invalid value: \"object\": must be of type string"),
                arguments("at most 8 taints", "nodeTaints: [" + "{key: a, effect: NoSchedule},".repeat(9) + "]",
                        "spec.nodeTaints", "Too many: 9: must have at most 8 items"),
                arguments("a taint is an object", "nodeTaints: [spot]",
                        "spec.nodeTaints[0]", "Invalid value: \"string\": must be of type object"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, String spec, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(() -> decode(spec));
        assertThat(causes).as(Yaml.describe(causes)).anySatisfy(cause -> {
            assertThat(cause.field()).isEqualTo(field);
            assertThat(cause.message()).startsWith(message);
        });
    }
}
