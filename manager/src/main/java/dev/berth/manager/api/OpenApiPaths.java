package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The path items of one kind in an OpenAPI document: the collection and the named object, each
 * operation tagged with {@code x-kubernetes-group-version-kind} and {@code x-kubernetes-action},
 * the writes declaring {@code fieldValidation} and {@code dryRun} (kubectl looks for the former
 * before it leaves field validation to the server).
 */
final class OpenApiPaths {
    private OpenApiPaths() {}

    static void add(ObjectNode paths, ResourceType type, String version, String prefix, boolean v3) {
        String collection = "/" + prefix + (type.namespaced() ? "/namespaces/{namespace}/" : "/") + type.plural();
        ObjectNode list = paths.putObject(collection);
        operation(list, "get", "list", type, version, v3, false);
        operation(list, "post", "post", type, version, v3, true);
        ObjectNode item = paths.putObject(collection + "/{name}");
        operation(item, "get", "get", type, version, v3, false);
        operation(item, "put", "put", type, version, v3, true);
        operation(item, "patch", "patch", type, version, v3, true);
        operation(item, "delete", "delete", type, version, v3, false);
    }

    private static void operation(ObjectNode pathItem, String method, String action, ResourceType type, String version,
                                  boolean v3, boolean write) {
        ObjectNode operation = pathItem.putObject(method);
        operation.put("operationId", method + type.kind());
        operation.put("x-kubernetes-action", action);
        operation.putObject("x-kubernetes-group-version-kind").put("group", type.group()).put("version", version).put("kind", type.kind());
        ArrayNode parameters = operation.putArray("parameters");
        if (write) {
            query(parameters, v3, "fieldValidation", "fieldValidation instructs the server on how to handle objects in the request "
                    + "containing unknown or duplicate fields. Valid values are: Ignore, Warn (the default), Strict.");
            query(parameters, v3, "dryRun", "When present, indicates that modifications should not be persisted. Valid value: All.");
            query(parameters, v3, "fieldManager", "fieldManager is a name associated with the actor or entity that is making these changes.");
        }
        operation.putObject("responses").putObject("200").put("description", "OK");
    }

    /** A string query parameter; swagger 2.0 types it in place, OpenAPI v3 through a schema. */
    private static void query(ArrayNode parameters, boolean v3, String name, String description) {
        ObjectNode parameter = parameters.addObject().put("name", name).put("in", "query").put("description", description);
        if (v3) parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
        else parameter.put("type", "string").put("uniqueItems", true);
    }
}
