package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 6902 JSON patch: add, remove, replace, move, copy and test, applied in order to a copy of the
 * target. Any failing operation refuses the whole patch (nothing changes); a failed {@code test}
 * answers 422 Invalid as the API server does, other failures 422 as well naming the operation.
 */
final class JsonPatch {
    private JsonPatch() {}

    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isArray()) throw ApiException.badRequest("a JSON patch must be an array of operations");
        JsonNode document = target.deepCopy();
        for (int i = 0; i < patch.size(); i++) {
            JsonNode operation = patch.get(i);
            String op = operation.path("op").asText("");
            String path = required(operation, "path", i);
            document = switch (op) {
                case "add" -> add(document, path, value(operation, i), i);
                case "remove" -> remove(document, path, i);
                case "replace" -> add(remove(document, path, i), path, value(operation, i), i);
                case "move" -> {
                    String from = required(operation, "from", i);
                    JsonNode moved = get(document, from, i);
                    yield add(remove(document, from, i), path, moved, i);
                }
                case "copy" -> add(document, path, get(document, required(operation, "from", i), i).deepCopy(), i);
                case "test" -> {
                    if (!get(document, path, i).equals(value(operation, i))) {
                        throw failed(i, "test failed: the value at " + path + " is not the expected one");
                    }
                    yield document;
                }
                default -> throw ApiException.badRequest("JSON patch operation " + i + ": unknown op \"" + op + "\"");
            };
        }
        return document;
    }

    private static JsonNode add(JsonNode document, String path, JsonNode value, int index) {
        if (path.isEmpty()) return value.deepCopy();
        Location location = locate(document, path, index);
        if (location.parent() instanceof ObjectNode object) {
            object.set(location.token(), value.deepCopy());
        } else if (location.parent() instanceof ArrayNode array) {
            if (location.token().equals("-")) {
                array.add(value.deepCopy());
            } else {
                int at = arrayIndex(location.token(), array.size() + 1, index, path);
                array.insert(at, value.deepCopy());
            }
        } else {
            throw failed(index, "the parent of " + path + " is not an object or array");
        }
        return document;
    }

    private static JsonNode remove(JsonNode document, String path, int index) {
        if (path.isEmpty()) throw failed(index, "cannot remove the whole document");
        Location location = locate(document, path, index);
        if (location.parent() instanceof ObjectNode object && object.has(location.token())) {
            object.remove(location.token());
        } else if (location.parent() instanceof ArrayNode array) {
            array.remove(arrayIndex(location.token(), array.size(), index, path));
        } else {
            throw failed(index, "no value at " + path);
        }
        return document;
    }

    private static JsonNode get(JsonNode document, String path, int index) {
        JsonNode node = document;
        for (String token : tokens(path, index)) {
            if (node instanceof ArrayNode array) {
                node = array.get(arrayIndex(token, array.size(), index, path));
            } else {
                node = node.get(token);
            }
            if (node == null) throw failed(index, "no value at " + path);
        }
        return node;
    }

    private record Location(JsonNode parent, String token) {}

    private static Location locate(JsonNode document, String path, int index) {
        List<String> tokens = tokens(path, index);
        String parentPath = path.substring(0, path.lastIndexOf('/'));
        return new Location(get(document, parentPath, index), tokens.get(tokens.size() - 1));
    }

    private static List<String> tokens(String path, int index) {
        List<String> tokens = new ArrayList<>();
        if (path.isEmpty()) return tokens;
        if (!path.startsWith("/")) throw ApiException.badRequest("JSON patch operation " + index + ": path \"" + path + "\" must start with /");
        for (String token : path.substring(1).split("/", -1)) tokens.add(token.replace("~1", "/").replace("~0", "~"));
        return tokens;
    }

    private static int arrayIndex(String token, int limit, int index, String path) {
        try {
            int at = Integer.parseInt(token);
            if (at >= 0 && at < limit) return at;
        } catch (NumberFormatException e) {
            // fall through
        }
        throw failed(index, "index " + token + " of " + path + " is out of bounds");
    }

    private static String required(JsonNode operation, String field, int index) {
        JsonNode value = operation.get(field);
        if (value == null || !value.isTextual()) throw ApiException.badRequest("JSON patch operation " + index + ": \"" + field + "\" is required");
        return value.asText();
    }

    private static JsonNode value(JsonNode operation, int index) {
        if (!operation.has("value")) throw ApiException.badRequest("JSON patch operation " + index + ": \"value\" is required");
        return operation.get("value");
    }

    private static ApiException failed(int index, String message) {
        return new ApiException(422, "Invalid", "the JSON patch could not be applied: operation " + index + ": " + message,
                null, null, null, List.of());
    }
}
