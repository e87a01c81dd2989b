package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RFC 7386 JSON merge patch: objects merge recursively, null removes a field, anything else replaces.
 * The target is copied once and merged in place, so the work is proportional to the target plus the patch.
 */
final class JsonMergePatch {
    private JsonMergePatch() {}

    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) return patch.deepCopy();
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : ((ObjectNode) patch).objectNode();
        mergeInto(result, (ObjectNode) patch);
        return result;
    }

    private static void mergeInto(ObjectNode result, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            JsonNode value = field.getValue();
            if (value.isNull()) {
                result.remove(field.getKey());
            } else if (value instanceof ObjectNode patchObject) {
                JsonNode existing = result.get(field.getKey());
                ObjectNode merged = existing instanceof ObjectNode object ? object : result.objectNode();
                mergeInto(merged, patchObject);
                result.set(field.getKey(), merged);
            } else {
                result.set(field.getKey(), value.deepCopy());
            }
        }
    }

    /**
     * The patch as it reads once applied to nothing: every object member whose value is null removed,
     * at every depth (array elements are values, kept as they are, as RFC 7386 keeps them). What a
     * merge patch or an apply configuration sets, for checks made before the merge.
     */
    static ObjectNode withoutNulls(ObjectNode patch) {
        ObjectNode copy = patch.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(ObjectNode object) {
        List<String> nulls = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : object.properties()) if (field.getValue().isNull()) nulls.add(field.getKey());
        object.remove(nulls);
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (field.getValue() instanceof ObjectNode child) strip(child);
        }
    }
}
