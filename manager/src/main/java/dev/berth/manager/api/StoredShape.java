package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.store.StoredObject;
import java.util.Map;

/**
 * A stored object as the request's version names it: apiVersion and kind first, Secrets' values left out where the
 * kind is not readable, Kueue's v1beta1 shape where the path asks for it.
 */
final class StoredShape {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StoredShape() {}

    /** A fresh tree the caller may change (a patch's target, a read filtered further). */
    static ObjectNode mutable(StoredObject stored, ResourcePath path, boolean readable) {
        ObjectNode object = stored.object();
        if (!readable) {
            object.remove("data");
            object.remove("stringData");
        }
        ObjectNode shaped = header(object, path);
        object.remove("apiVersion");
        object.remove("kind");
        shaped.setAll(object);
        if (path.kueueV1beta1()) ApiVersionConverter.toV1beta1(shaped);
        return shaped;
    }

    /**
     * For a write's reply, which is only encoded: its fields below the top are the stored version's shared,
     * read-only tree, so the reply costs no parse of what was just written. Falls back to {@link #mutable} where the
     * shape changes nested fields (v1beta1) or leaves some out.
     */
    static ObjectNode forReply(StoredObject stored, ResourcePath path, boolean readable) {
        if (!readable || path.kueueV1beta1()) return mutable(stored, path, readable);
        ObjectNode object = stored.readOnlyObject();
        ObjectNode shaped = header(object, path);
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (!field.getKey().equals("apiVersion") && !field.getKey().equals("kind")) shaped.set(field.getKey(), field.getValue());
        }
        return shaped;
    }

    /** A new object holding the path's apiVersion and the stored kind, first, as a GET shows them. */
    private static ObjectNode header(ObjectNode stored, ResourcePath path) {
        ObjectNode shaped = NODES.objectNode();
        shaped.put("apiVersion", path.apiVersion());
        shaped.put("kind", stored.path("kind").asText(path.type().kind()));
        return shaped;
    }

    /** The object with its status replaced, its other fields shared with the stored version: only for measuring it. */
    static ObjectNode withStatusForSize(StoredObject existing, JsonNode status) {
        ObjectNode copy = NODES.objectNode();
        copy.setAll(existing.readOnlyObject());
        copy.set("status", status);
        return copy;
    }
}
