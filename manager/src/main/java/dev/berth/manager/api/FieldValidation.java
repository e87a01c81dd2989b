package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.schema.FieldPruner;
import dev.berth.manager.schema.KindSchema;
import dev.berth.manager.schema.SchemaCatalog;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code fieldValidation} query parameter of a write, as kube-apiserver reads it: the body is
 * checked against the schema of the version the client wrote in, its unknown fields are pruned
 * whatever the directive, and then Strict refuses the write (400, every field named), Warn (the
 * default, as kubectl's) answers one {@code Warning} per field, and Ignore says nothing.
 */
enum FieldValidation {
    IGNORE, WARN, STRICT;

    static FieldValidation of(ApiRequest request) {
        String value = request.param("fieldValidation");
        if (value == null || value.isEmpty()) return WARN;
        return switch (value) {
            case "Ignore" -> IGNORE;
            case "Warn" -> WARN;
            case "Strict" -> STRICT;
            default -> throw ApiException.badRequest("fieldValidation: Unsupported value: \"" + value
                    + "\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
        };
    }

    /** Checks and prunes the schema-checked kinds' writes; the warnings the client gets. */
    static final class Check {
        private final Supplier<SchemaCatalog> catalog;

        Check(Supplier<SchemaCatalog> catalog) {
            this.catalog = catalog;
        }

        /**
         * Prunes body in place (fields the baseline, the object a patch started from, already had are
         * left alone) and applies the request's directive.
         */
        List<String> apply(ApiRequest request, ResourcePath path, ObjectNode body, JsonNode baseline) {
            FieldValidation directive = of(request);
            ResourceType type = path.type();
            Optional<KindSchema> schema = catalog.get().schema(type.group(), path.version(), type.kind());
            if (schema.isEmpty()) return List.of();
            List<String> unknown = FieldPruner.prune(schema.get(), body, baseline).stream()
                    .map(field -> "unknown field \"" + field + "\"").toList();
            if (unknown.isEmpty() || directive == IGNORE) return List.of();
            if (directive == WARN) return unknown;
            throw ApiException.badRequest(type.kind() + " in version \"" + path.version() + "\" cannot be handled as a "
                    + type.kind() + ": strict decoding error: " + String.join(", ", unknown));
        }
    }
}
