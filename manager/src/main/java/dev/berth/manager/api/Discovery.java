package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.AccessReviewApi;
import dev.berth.protocol.KueueApi;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The legacy (unaggregated) discovery documents built from the registry: {@code /api},
 * {@code /api/v1}, {@code /apis}, {@code /apis/{group}} and {@code /apis/{group}/{version}}.
 * kubectl asks for aggregated discovery first and falls back to these when the answer is plain
 * application/json. Immutable once built, so it is served from the event loop.
 */
final class Discovery {
    static final List<String> VERBS = List.of("create", "delete", "get", "list", "patch", "update", "watch");
    static final List<String> STATUS_VERBS = List.of("get", "patch", "update");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Kinds served by routes of their own, create-only and never stored: the self reviews kubectl's auth commands post. */
    static final List<ResourceType> REVIEWS = List.of(
            review(AccessReviewApi.AUTHORIZATION_GROUP, AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEWS, AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEW),
            review(AccessReviewApi.AUTHORIZATION_GROUP, AccessReviewApi.SELF_SUBJECT_RULES_REVIEWS, AccessReviewApi.SELF_SUBJECT_RULES_REVIEW),
            review(AccessReviewApi.AUTHENTICATION_GROUP, AccessReviewApi.SELF_SUBJECT_REVIEWS, AccessReviewApi.SELF_SUBJECT_REVIEW));

    private final ResourceRegistry registry;
    /** group → served versions, the storage (preferred) version first. */
    private final Map<String, Set<String>> groups = new LinkedHashMap<>();

    Discovery(ResourceRegistry registry) {
        this.registry = registry;
        for (ResourceType type : registry.types()) {
            groups.computeIfAbsent(type.group(), g -> new LinkedHashSet<>()).addAll(registry.versions(type));
        }
        for (ResourceType review : REVIEWS) groups.computeIfAbsent(review.group(), g -> new LinkedHashSet<>()).add(review.version());
        for (VisibilityDiscovery.Resource served : VisibilityDiscovery.RESOURCES) {
            groups.computeIfAbsent(served.group(), g -> new LinkedHashSet<>()).add(served.version());
        }
    }

    /** Group → served versions, the preferred first; "" is the core group. */
    Map<String, Set<String>> groups() {
        return groups;
    }

    private static ResourceType review(String group, String plural, String kind) {
        return new ResourceType(group, AccessReviewApi.V1, plural, plural.substring(0, plural.length() - 1), kind, false, List.of(), false);
    }

    ObjectNode coreVersions() {
        ObjectNode versions = NODES.objectNode().put("kind", "APIVersions");
        versions.putArray("versions").add("v1");
        versions.putArray("serverAddressByClientCIDRs");
        return versions;
    }

    ObjectNode groupList() {
        ObjectNode list = NODES.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode items = list.putArray("groups");
        groups.keySet().stream().filter(g -> !g.isEmpty()).forEach(g -> items.add(group(g).orElseThrow()));
        return list;
    }

    Optional<ObjectNode> group(String name) {
        Set<String> versions = groups.get(name);
        if (name.isEmpty() || versions == null) return Optional.empty();
        ObjectNode group = NODES.objectNode().put("kind", "APIGroup").put("apiVersion", "v1").put("name", name);
        ArrayNode list = group.putArray("versions");
        for (String version : versions) list.addObject().put("groupVersion", name + "/" + version).put("version", version);
        String preferred = versions.iterator().next();
        group.putObject("preferredVersion").put("groupVersion", name + "/" + preferred).put("version", preferred);
        return Optional.of(group);
    }

    /** The APIResourceList of one group version ("" for core). */
    Optional<ObjectNode> resources(String group, String version) {
        Set<String> versions = groups.get(group);
        if (versions == null || !versions.contains(version)) return Optional.empty();
        ObjectNode list = NODES.objectNode().put("kind", "APIResourceList").put("apiVersion", "v1")
                .put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = list.putArray("resources");
        for (ResourceType type : registry.types()) {
            if (!type.group().equals(group) || !registry.serves(type, version)) continue;
            ObjectNode resource = resources.addObject().put("name", type.plural()).put("singularName", type.singular())
                    .put("namespaced", type.namespaced()).put("kind", type.kind());
            VERBS.forEach(resource.putArray("verbs")::add);
            if (!type.shortNames().isEmpty()) type.shortNames().forEach(resource.putArray("shortNames")::add);
            if (group.equals(KueueApi.GROUP)) resource.putArray("categories").add("kueue");
            if (type.hasStatus()) {
                ObjectNode status = resources.addObject().put("name", type.plural() + "/status").put("singularName", "")
                        .put("namespaced", type.namespaced()).put("kind", type.kind());
                STATUS_VERBS.forEach(status.putArray("verbs")::add);
            }
            if (ScaleSubresource.scalable(type)) {
                ObjectNode scale = resources.addObject().put("name", type.plural() + "/scale").put("singularName", "")
                        .put("namespaced", type.namespaced()).put("group", ScaleSubresource.GROUP)
                        .put("version", ScaleSubresource.VERSION).put("kind", ScaleSubresource.KIND);
                STATUS_VERBS.forEach(scale.putArray("verbs")::add);
            }
        }
        for (ResourceType review : REVIEWS) {
            if (!review.group().equals(group) || !review.version().equals(version)) continue;
            resources.addObject().put("name", review.plural()).put("singularName", review.singular())
                    .put("namespaced", review.namespaced()).put("kind", review.kind()).putArray("verbs").add("create");
        }
        for (VisibilityDiscovery.Resource served : VisibilityDiscovery.RESOURCES) {
            if (!served.group().equals(group) || !served.version().equals(version)) continue;
            ObjectNode resource = resources.addObject().put("name", served.name()).put("singularName", served.singularName())
                    .put("namespaced", served.namespaced()).put("kind", served.kind());
            served.verbs().forEach(resource.putArray("verbs")::add);
        }
        return Optional.of(list);
    }
}
