package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestReaderTest {
    private static List<ObjectNode> yaml(String text) {
        return ManifestReader.read(text.getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    private static String refusal(String text, String contentType) {
        InvalidObjectException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidObjectException.class,
                () -> ManifestReader.read(text.getBytes(StandardCharsets.UTF_8), contentType));
        assertThat(e.httpStatus()).isEqualTo(400);
        return e.getMessage();
    }

    @Test
    void multiDocumentYamlSkipsEmptyDocuments() {
        List<ObjectNode> documents = yaml("---\nkind: A\n---\n---\n# only a comment\n---\nkind: B\n...\n");
        assertThat(documents).extracting(d -> d.get("kind").asText()).containsExactly("A", "B");
    }

    @Test
    void yamlScalarsBecomeTheJsonKubernetesWouldSee() {
        ObjectNode object = yaml("""
                int: 42
                big: 123456789012345678901234567890
                float: 1.5
                yes: true
                quoted: "007"
                time: 2024-01-01T00:00:00Z
                nothing: null
                cpu: 500m
                """).get(0);
        assertThat(object.get("int").isIntegralNumber()).isTrue();
        assertThat(object.get("big").bigIntegerValue().toString()).isEqualTo("123456789012345678901234567890");
        assertThat(object.get("float").asDouble()).isEqualTo(1.5);
        assertThat(object.get("yes").asBoolean()).isTrue();
        assertThat(object.get("quoted").asText()).isEqualTo("007");
        assertThat(object.get("time").asText()).isEqualTo("2024-01-01T00:00:00Z");
        assertThat(object.get("nothing").isNull()).isTrue();
        assertThat(object.get("cpu").asText()).isEqualTo("500m");
    }

    @Test
    void aliasesAndMergeKeysExpand() {
        ObjectNode object = yaml("""
                base: &base {cpu: 1, memory: 2}
                copy: *base
                merged:
                  <<: *base
                  cpu: 3
                """).get(0);
        assertThat(object.get("copy")).isEqualTo(object.get("base"));
        assertThat(object.at("/merged/cpu").asInt()).isEqualTo(3);
        assertThat(object.at("/merged/memory").asInt()).isEqualTo(2);
    }

    @Test
    void aCutShortUnicodeEscapeIsABadRequestNotACrash() {
        // found by ApiFuzzTest: SnakeYAML's scanner let a NumberFormatException out, answered 500
        assertThat(refusal("spec: \"\\u", "application/yaml")).startsWith("yaml:").contains("escape");
        assertThat(refusal("spec: \"\\x4\"", "application/yaml")).startsWith("yaml:");
    }

    @Test
    void aSelfReferencingAliasIsRefused() {
        assertThat(refusal("a: &a [*a, *a]\n", "application/yaml")).startsWith("yaml:");
    }

    @Test
    void readableMessagesSayWhereTheProblemIs() {
        assertThat(refusal("{\"a\": 1,}", "application/json")).startsWith("json: line 1, column");
        assertThat(refusal("{\"a\": 1} {\"b\": 2}", "application/json")).startsWith("json: line 1");
        assertThat(refusal("a: 1\nb: [\n", "application/yaml")).startsWith("yaml: line ");
        assertThat(refusal("kind: A\n---\n- 1\n", "application/yaml")).startsWith("document 2 (line 3, column 1) must be an object");
        assertThat(refusal("", "application/json")).contains("empty");
    }

    @Test
    void jsonIsTheDefaultAndOtherTypesAre415() {
        assertThat(ManifestReader.read("{\"a\":1}".getBytes(StandardCharsets.UTF_8), null)).hasSize(1);
        assertThat(ManifestReader.read("{\"a\":1}".getBytes(StandardCharsets.UTF_8), "application/json; charset=utf-8")).hasSize(1);
        assertThatThrownBy(() -> ManifestReader.read(new byte[0], "text/plain"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(415));
    }
}
