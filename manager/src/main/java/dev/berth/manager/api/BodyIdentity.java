package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The checks that a write's body names the object and namespace its URL names, as kube-apiserver makes them. */
final class BodyIdentity {
    private BodyIdentity() {}

    static void checkName(ResourcePath path, ObjectNode body) {
        String name = metadata(body).path("name").asText("");
        if (name.isEmpty()) throw ApiException.badRequest("metadata.name is required");
        if (!name.equals(path.name())) {
            throw ApiException.badRequest("the name of the object (" + name + ") does not match the name on the URL (" + path.name() + ")");
        }
    }

    static void checkNamespace(ResourcePath path, ObjectNode metadata) {
        if (!path.type().namespaced()) {
            metadata.remove("namespace");
            return;
        }
        String namespace = metadata.path("namespace").asText("");
        if (namespace.isEmpty()) {
            metadata.put("namespace", path.namespace());
        } else if (!namespace.equals(path.namespace())) {
            throw ApiException.badRequest("the namespace of the provided object (" + namespace
                    + ") does not match the namespace sent on the request (" + path.namespace() + ")");
        }
    }

    static ObjectNode metadata(ObjectNode body) {
        JsonNode metadata = body.get("metadata");
        if (metadata instanceof ObjectNode object) return object;
        if (metadata != null && !metadata.isNull()) throw ApiException.badRequest("metadata must be an object");
        return body.putObject("metadata");
    }
}
