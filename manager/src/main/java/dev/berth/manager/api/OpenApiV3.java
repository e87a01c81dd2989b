package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * A minimal OpenAPI v3: the index of group versions, and per group version one PATCH operation per
 * kind, tagged with its group-version-kind and declaring the {@code fieldValidation} query
 * parameter. That is all kubectl reads from it to learn that the server validates fields itself
 * (it then sends {@code fieldValidation=Strict} and skips client-side schema validation, which
 * would otherwise need the full schemas). No schemas: kubectl treats every kind as schemaless and
 * falls back to merge patches, as for CRDs.
 */
final class OpenApiV3 {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ResourceRegistry registry;
    private final Discovery discovery;

    OpenApiV3(ResourceRegistry registry, Discovery discovery) {
        this.registry = registry;
        this.discovery = discovery;
    }

    ObjectNode index() {
        ObjectNode index = NODES.objectNode();
        ObjectNode paths = index.putObject("paths");
        for (ResourceType type : registry.types()) {
            for (String version : registry.versions(type)) {
                String path = prefix(type.group(), version);
                paths.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path);
            }
        }
        return index;
    }

    /** The document of one group version, e.g. {@code apis/batch/v1} or {@code api/v1}. */
    Optional<ObjectNode> groupVersion(String path) {
        String[] parts = path.split("/");
        String group;
        String version;
        if (parts.length == 2 && parts[0].equals("api")) {
            group = "";
            version = parts[1];
        } else if (parts.length == 3 && parts[0].equals("apis")) {
            group = parts[1];
            version = parts[2];
        } else {
            return Optional.empty();
        }
        if (discovery.resources(group, version).isEmpty()) return Optional.empty();
        ObjectNode document = NODES.objectNode().put("openapi", "3.0.0");
        document.putObject("info").put("title", "Berth").put("version", "v1.32.0-berth");
        ObjectNode paths = document.putObject("paths");
        for (ResourceType type : registry.types()) {
            if (!type.group().equals(group) || !registry.serves(type, version)) continue;
            String item = "/" + prefix(group, version) + (type.namespaced() ? "/namespaces/{namespace}/" : "/") + type.plural() + "/{name}";
            ObjectNode patch = paths.putObject(item).putObject("patch");
            patch.putObject("x-kubernetes-group-version-kind").put("group", group).put("version", version).put("kind", type.kind());
            patch.putArray("parameters").addObject().put("name", "fieldValidation").put("in", "query")
                    .putObject("schema").put("type", "string");
            patch.putObject("responses");
        }
        document.putObject("components").putObject("schemas");
        return Optional.of(document);
    }

    private static String prefix(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }
}
