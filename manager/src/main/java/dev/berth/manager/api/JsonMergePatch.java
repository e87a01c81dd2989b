package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** RFC 7386 JSON merge patch: objects merge recursively, null removes a field, anything else replaces. */
final class JsonMergePatch {
    private JsonMergePatch() {}

    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) return patch.deepCopy();
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : ((ObjectNode) patch).objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
