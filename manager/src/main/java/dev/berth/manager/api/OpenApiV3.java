package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.schema.OpenApiSchemas;
import dev.berth.manager.schema.SchemaCatalog;
import dev.berth.manager.schema.SchemaCatalog.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * OpenAPI v3 as kube-apiserver serves it: the index of group versions, and per group version a
 * document whose {@code components.schemas} hold every served kind's schema (tagged with its
 * group-version-kind) and what it refers to, and whose paths give each kind's operations with the
 * {@code fieldValidation} parameter. kubectl reads it for {@code explain}, for client-side
 * validation, and to learn that the server validates fields itself. Documents are built on first
 * request and kept.
 */
final class OpenApiV3 {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ResourceRegistry registry;
    private final Discovery discovery;
    private final Supplier<SchemaCatalog> catalog;
    private final Map<String, ObjectNode> documents = new ConcurrentHashMap<>();

    OpenApiV3(ResourceRegistry registry, Discovery discovery) {
        this(registry, discovery, SchemaCatalog::bundled);
    }

    OpenApiV3(ResourceRegistry registry, Discovery discovery, Supplier<SchemaCatalog> catalog) {
        this.registry = registry;
        this.discovery = discovery;
        this.catalog = catalog;
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
        return Optional.of(documents.computeIfAbsent(group + "/" + version, key -> document(group, version)));
    }

    private ObjectNode document(String group, String version) {
        ObjectNode document = NODES.objectNode().put("openapi", "3.0.0");
        document.putObject("info").put("title", "Kubernetes").put("version", "v1.32.0-berth");
        ObjectNode paths = document.putObject("paths");
        List<GroupVersionKind> kinds = new ArrayList<>();
        for (ResourceType type : registry.types()) {
            if (!type.group().equals(group) || !registry.serves(type, version)) continue;
            kinds.add(new GroupVersionKind(group, version, type.kind()));
            OpenApiPaths.add(paths, type, version, prefix(group, version), true);
        }
        document.putObject("components").set("schemas", OpenApiSchemas.of(catalog.get(), kinds, OpenApiSchemas.V3_REFS));
        return document;
    }

    static String prefix(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }
}
