package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.schema.OpenApiSchemas;
import dev.berth.manager.schema.SchemaCatalog;
import dev.berth.manager.schema.SchemaCatalog.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The swagger 2.0 document at {@code /openapi/v2}: every served kind at every served version in
 * {@code definitions}, with its paths. JSON only: a client that accepts nothing but the protobuf
 * encoding gets 406 (client-go then reads OpenAPI v3). Built on first request and kept.
 */
final class OpenApiV2 {
    static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ResourceRegistry registry;
    private final Supplier<SchemaCatalog> catalog;
    private volatile ObjectNode document;

    OpenApiV2(ResourceRegistry registry, Supplier<SchemaCatalog> catalog) {
        this.registry = registry;
        this.catalog = catalog;
    }

    /** Whether an Accept header admits JSON (absent, JSON, or a wildcard); a protobuf-only one does not. */
    static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) return true;
        for (String range : accept.split(",")) {
            String media = range.split(";")[0].trim().toLowerCase();
            if (media.equals("application/json") || media.equals("*/*") || media.equals("application/*")) return true;
        }
        return false;
    }

    ObjectNode document() {
        ObjectNode built = document;
        if (built == null) {
            built = build();
            document = built;
        }
        return built;
    }

    private ObjectNode build() {
        ObjectNode swagger = NODES.objectNode().put("swagger", "2.0");
        swagger.putObject("info").put("title", "Kubernetes").put("version", "v1.32.0-berth");
        ObjectNode paths = swagger.putObject("paths");
        List<GroupVersionKind> kinds = new ArrayList<>();
        for (ResourceType type : registry.types()) {
            for (String version : registry.versions(type)) {
                kinds.add(new GroupVersionKind(type.group(), version, type.kind()));
                OpenApiPaths.add(paths, type, version, OpenApiV3.prefix(type.group(), version), false);
            }
        }
        swagger.set("definitions", OpenApiSchemas.of(catalog.get(), kinds, OpenApiSchemas.V2_REFS));
        return swagger;
    }
}
