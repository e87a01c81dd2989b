package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Test fixtures: objects parsed from YAML text, and the causes a decoder rejects them with. */
final class Yaml {
    private static final YAMLMapper MAPPER = new YAMLMapper();

    private Yaml() {}

    static ObjectNode parse(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode resource(String name) {
        try (InputStream in = Yaml.class.getResourceAsStream("/objects/" + name)) {
            return (ObjectNode) MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An object of the given kind whose spec is the given YAML block (written at column 0). */
    static ObjectNode object(String kind, String name, String spec) {
        return parse("apiVersion: kueue.x-k8s.io/v1beta2\nkind: " + kind + "\nmetadata:\n  name: " + name
                + "\nspec:\n" + spec.stripIndent().lines().map(line -> "  " + line).reduce("", (a, b) -> a + b + "\n"));
    }

    /** Runs a decoder that must refuse its input with 422 and returns the causes. */
    static List<FieldCause> causesOf(Runnable decode) {
        InvalidObjectException e = catchThrowableOfType(InvalidObjectException.class, decode::run);
        assertThat(e).as("decoder should reject the object").isNotNull();
        assertThat(e.httpStatus()).isEqualTo(422);
        assertThat(e.causes()).isNotEmpty();
        return e.causes();
    }

    static String describe(List<FieldCause> causes) {
        return String.join("\n", causes.stream().map(c -> c.field() + ": " + c.message()).toList());
    }
}
