package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList), which kubectl 1.32 asks for
 * first: every group version's resources in one answer for {@code /api} and one for {@code /apis}.
 * Built from the legacy documents of {@link Discovery}, so both always list the same resources,
 * subresources folded under their parent. Immutable once built.
 */
final class AggregatedDiscovery {
    static final String MEDIA_TYPE = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectNode core;
    private final ObjectNode apis;

    AggregatedDiscovery(Discovery discovery) {
        this.core = list();
        this.apis = list();
        for (Map.Entry<String, Set<String>> group : discovery.groups().entrySet()) {
            ObjectNode item = (group.getKey().isEmpty() ? core : apis).withArray("items").addObject();
            item.putObject("metadata").put("name", group.getKey());
            ArrayNode versions = item.putArray("versions");
            for (String version : group.getValue()) {
                discovery.resources(group.getKey(), version).ifPresent(list ->
                        versions.addObject().put("version", version).put("freshness", "Current")
                                .set("resources", resources(group.getKey(), version, list)));
            }
        }
    }

    /** Whether one of the Accept header's media ranges is the v2 aggregated form. */
    static boolean wanted(String accept) {
        if (accept == null) return false;
        for (String range : accept.split(",")) {
            java.util.Set<String> parameters = new java.util.HashSet<>();
            for (String part : range.split(";")) parameters.add(part.strip());
            if (parameters.contains("as=APIGroupDiscoveryList") && parameters.contains("v=v2")
                    && parameters.contains("g=apidiscovery.k8s.io")) return true;
        }
        return false;
    }

    ObjectNode core() {
        return core;
    }

    ObjectNode apis() {
        return apis;
    }

    private static ObjectNode list() {
        ObjectNode list = NODES.objectNode().put("kind", "APIGroupDiscoveryList").put("apiVersion", "apidiscovery.k8s.io/v2");
        list.putObject("metadata");
        list.putArray("items");
        return list;
    }

    private static ArrayNode resources(String group, String version, ObjectNode legacy) {
        Map<String, ObjectNode> byName = new LinkedHashMap<>();
        for (JsonNode resource : legacy.path("resources")) {
            String name = resource.path("name").asText();
            int slash = name.indexOf('/');
            if (slash < 0) {
                ObjectNode entry = NODES.objectNode().put("resource", name);
                entry.set("responseKind", kind(group, version, resource.path("kind").asText()));
                entry.put("scope", resource.path("namespaced").asBoolean() ? "Namespaced" : "Cluster");
                entry.put("singularResource", resource.path("singularName").asText());
                entry.set("verbs", resource.path("verbs").isArray() ? resource.get("verbs").deepCopy() : NODES.arrayNode());
                if (resource.has("shortNames")) entry.set("shortNames", resource.get("shortNames").deepCopy());
                if (resource.has("categories")) entry.set("categories", resource.get("categories").deepCopy());
                byName.put(name, entry);
            } else {
                ObjectNode parent = byName.get(name.substring(0, slash));
                if (parent == null) continue;
                ObjectNode sub = parent.withArray("subresources").addObject().put("subresource", name.substring(slash + 1));
                sub.set("responseKind", kind(resource.path("group").asText(group), resource.path("version").asText(version),
                        resource.path("kind").asText()));
                sub.set("verbs", resource.path("verbs").isArray() ? resource.get("verbs").deepCopy() : NODES.arrayNode());
            }
        }
        ArrayNode resources = NODES.arrayNode();
        byName.values().forEach(resources::add);
        return resources;
    }

    private static ObjectNode kind(String group, String version, String kind) {
        return NODES.objectNode().put("group", group).put("version", version).put("kind", kind);
    }
}
