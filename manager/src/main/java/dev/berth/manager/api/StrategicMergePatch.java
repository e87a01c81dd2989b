package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch ({@code application/strategic-merge-patch+json}) applied to a
 * built-in kind, as kube-apiserver applies it (apimachinery's strategicpatch, MergeParallelList and
 * IgnoreUnmatchedNulls on). Objects merge key by key and {@code null} removes a key; a list whose
 * field the {@link PatchShape} declares merging merges element by element on its merge key (or as a
 * set of scalars), any other list is replaced. Directives:
 * <ul>
 *   <li>{@code "$patch": "replace"} in an object replaces it with the rest of the patch object;
 *       {@code "delete"} empties it; {@code "merge"} is the default and changes nothing;</li>
 *   <li>in a merging list, an element {@code {"$patch": "delete", <key>: v}} removes every element
 *       with that key, and an element {@code {"$patch": "replace"}} makes the list exactly the
 *       patch's other elements;</li>
 *   <li>{@code "$retainKeys": [..]} in an object drops every key of the stored object not named;</li>
 *   <li>{@code "$setElementOrder/<list>": [..]} gives the order of the merged list;</li>
 *   <li>{@code "$deleteFromPrimitiveList/<list>": [..]} removes those scalars from the list.</li>
 * </ul>
 * Without {@code $setElementOrder}, patched elements come first in the patch's order, interleaved with
 * the stored ones by their stored order, and new ones come before the stored elements that follow them
 * (kube's order). A value the stored object lacks is still read as a patch (merged into nothing), so
 * its directives are interpreted and never stored.
 *
 * <p>The work is linear in the stored object plus the patch (lookups by hash, one sort per list), and is
 * also counted: past {@value #MAX_STEPS} steps the patch is refused (422), as {@link JsonPatch} bounds its
 * work. Malformed directives answer 400 with kube's messages; a list of lists 422.
 */
final class StrategicMergePatch {
    static final long MAX_STEPS = 10_000_000;
    static final String DIRECTIVE = "$patch";
    static final String RETAIN_KEYS = "$retainKeys";
    static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

    private final Deque<String> path = new ArrayDeque<>();
    private long steps;

    private StrategicMergePatch() {}

    /** The target after the patch; the target itself is left unchanged. */
    static ObjectNode apply(ObjectNode target, ObjectNode patch, PatchShape shape) {
        return new StrategicMergePatch().mergeObject(target.deepCopy(), patch, shape);
    }

    /** kube-apiserver's answer to a strategic merge patch on a custom resource. */
    static ApiException unsupportedForCustomResources() {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", null, null, null, List.of());
    }

    /** Merges patch into original, which it changes and returns (or a new object for $patch replace and delete). */
    ObjectNode mergeObject(ObjectNode original, ObjectNode patch, PatchShape shape) {
        charge(patch.size());
        JsonNode directive = patch.get(DIRECTIVE);
        if (directive != null) {
            switch (directive.isTextual() ? directive.textValue() : "") {
                case "replace" -> {
                    ObjectNode rest = patch.deepCopy();
                    rest.remove(DIRECTIVE);
                    return mergeObject(JsonNodeFactory.instance.objectNode(), rest, shape);
                }
                case "delete" -> {
                    return JsonNodeFactory.instance.objectNode();
                }
                case "merge" -> { }
                default -> throw badRequest("unknown patch type: " + abbreviated(directive.toString()) + " in map");
            }
        }
        retainKeys(original, patch);
        Set<String> ordered = new HashSet<>();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (!field.getKey().startsWith(SET_ELEMENT_ORDER)) continue;
            String list = listName(field.getKey(), SET_ELEMENT_ORDER, "invalid patch format of setElementOrder list");
            if (!field.getValue().isArray()) throw badRequest("invalid patch format of setElementOrder list");
            ordered.add(list);
            JsonNode patchList = patch.get(list);
            if (patchList != null && patchList.isNull()) {
                original.remove(list);
                continue;
            }
            if (patchList != null && !patchList.isArray()) throw badRequest("invalid patch format of setElementOrder list");
            JsonNode existing = original.get(list);
            if (patchList == null && !(existing instanceof ArrayNode)) continue;
            path.addLast(list);
            original.set(list, lists().merge(existing instanceof ArrayNode array ? array : null,
                    patchList instanceof ArrayNode array ? array : JsonNodeFactory.instance.arrayNode(),
                    shape.mergeKey(list), shape.child(list), (ArrayNode) field.getValue()));
            path.removeLast();
        }
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String key = field.getKey();
            if (key.startsWith("$")) {
                checkDirective(key);
                continue;
            }
            if (ordered.contains(key)) continue;
            JsonNode value = field.getValue();
            if (value.isNull()) {
                original.remove(key);
                continue;
            }
            path.addLast(key);
            original.set(key, merged(original.get(key), value, shape, key));
            path.removeLast();
        }
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (!field.getKey().startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
            String list = listName(field.getKey(), DELETE_FROM_PRIMITIVE_LIST, "invalid patch format of primitive list");
            if (!field.getValue().isArray()) throw badRequest("invalid patch format of primitive list");
            if (original.get(list) instanceof ArrayNode existing) {
                path.addLast(list);
                original.set(list, lists().withoutScalars(existing, (ArrayNode) field.getValue()));
                path.removeLast();
            }
        }
        return original;
    }

    /** The value at key once patched: objects and lists merge (into nothing if the stored value is not one), scalars replace. */
    private JsonNode merged(JsonNode existing, JsonNode value, PatchShape shape, String key) {
        if (value instanceof ObjectNode object) {
            return mergeObject(existing instanceof ObjectNode stored ? stored : JsonNodeFactory.instance.objectNode(), object, shape.child(key));
        }
        if (value instanceof ArrayNode array) {
            return lists().merge(existing instanceof ArrayNode stored ? stored : null, array, shape.mergeKey(key), shape.child(key), null);
        }
        return value;
    }

    /** A patch value read on its own: its directives interpreted, its nulls dropped (an element of a replaced or new list). */
    JsonNode fresh(JsonNode value, PatchShape shape) {
        if (value instanceof ObjectNode object) return mergeObject(JsonNodeFactory.instance.objectNode(), object, shape);
        if (value.isArray()) throw listOfLists();
        return value;
    }

    private void retainKeys(ObjectNode original, ObjectNode patch) {
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain == null) return;
        if (!retain.isArray()) throw badRequest("invalid patch format of retainKeys");
        charge(retain.size());
        Set<String> kept = new HashSet<>();
        for (JsonNode key : retain) {
            if (!key.isTextual()) throw badRequest("invalid patch format of retainKeys");
            kept.add(key.textValue());
        }
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            String key = field.getKey();
            if (key.startsWith("$") || field.getValue().isNull()) continue;
            if (!kept.contains(key)) throw badRequest("invalid patch format of retainKeys: \"" + abbreviated(key) + "\" is not in the $retainKeys list");
        }
        List<String> dropped = new ArrayList<>();
        original.fieldNames().forEachRemaining(key -> {
            if (!kept.contains(key)) dropped.add(key);
        });
        original.remove(dropped);
    }

    private void checkDirective(String key) {
        if (key.equals(DIRECTIVE) || key.equals(RETAIN_KEYS) || key.startsWith(SET_ELEMENT_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) return;
        throw badRequest("unknown strategic merge patch directive \"" + abbreviated(key) + "\"");
    }

    private String listName(String key, String prefix, String message) {
        String name = key.substring(prefix.length());
        if (name.isEmpty() || name.startsWith("$")) throw badRequest(message);
        return name;
    }

    private StrategicListMerge lists() {
        return new StrategicListMerge(this);
    }

    /** Counts work done; past the budget the patch is refused. */
    void charge(long amount) {
        steps += amount;
        if (steps > MAX_STEPS) {
            throw new ApiException(422, "Invalid", "the strategic merge patch could not be applied: it needs more than "
                    + MAX_STEPS + " steps", null, null, null, List.of());
        }
    }

    void enter(String segment) {
        path.addLast(segment);
    }

    void leave() {
        path.removeLast();
    }

    ApiException badRequest(String message) {
        String at = where();
        return ApiException.badRequest("the strategic merge patch could not be applied: " + message + (at.isEmpty() ? "" : " (at " + at + ")"));
    }

    ApiException listOfLists() {
        return new ApiException(422, "Invalid", "the strategic merge patch could not be applied: lists of lists are not supported (at "
                + where() + ")", null, null, null, List.of());
    }

    /** The field being patched, as spec.template.spec.containers[name=c].env. */
    private String where() {
        StringBuilder at = new StringBuilder();
        for (String segment : path) {
            if (at.length() > 0 && !segment.startsWith("[")) at.append('.');
            at.append(segment);
        }
        return abbreviated(at.toString());
    }

    static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
