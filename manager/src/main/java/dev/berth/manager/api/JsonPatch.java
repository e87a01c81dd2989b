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
 *
 * <p>The work a patch can cause is bounded while it is applied, before anything can blow up: at most
 * {@value #MAX_OPERATIONS} operations (kube-apiserver's limit, 413); copies, and moves to a deeper
 * place, may carry at most {@link #MAX_COPIED_BYTES} bytes in total (estimated as JSON; the same idea
 * as json-patch's AccumulatedCopySizeLimit, 422); inserts and removals inside arrays may shift at most
 * {@value #MAX_SHIFTED_ELEMENTS} elements in total (422); and no operation may put a value deeper than
 * {@link ManifestReader#MAX_DEPTH} levels (422). Only the copy operation copies; a move re-links.
 */
final class JsonPatch {
    static final int MAX_OPERATIONS = 10_000;
    static final long MAX_COPIED_BYTES = StoredSizeLimit.MAX_OBJECT_BYTES;
    static final long MAX_SHIFTED_ELEMENTS = 10_000_000;

    private JsonNode document;
    private long copiedBytes;
    private long shiftedElements;

    private JsonPatch(JsonNode document) {
        this.document = document;
    }

    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isArray()) throw ApiException.badRequest("a JSON patch must be an array of operations");
        if (patch.size() > MAX_OPERATIONS) {
            throw new ApiException(413, "RequestEntityTooLarge", "The allowed maximum operations in a JSON patch is "
                    + MAX_OPERATIONS + ", got " + patch.size(), null, null, null, List.of());
        }
        JsonPatch application = new JsonPatch(target.deepCopy());
        for (int i = 0; i < patch.size(); i++) application.operation(patch.get(i), i);
        return application.document;
    }

    private void operation(JsonNode operation, int i) {
        String op = operation.path("op").asText("");
        String path = required(operation, "path", i);
        switch (op) {
            case "add" -> add(path, boundedDepth(path, value(operation, i), i), i);
            case "remove" -> remove(path, i);
            case "replace" -> {
                JsonNode value = boundedDepth(path, value(operation, i), i);
                remove(path, i);
                add(path, value, i);
            }
            case "move" -> {
                String from = required(operation, "from", i);
                JsonNode moved = get(from, i);
                if (depthOf(path, i) > depthOf(from, i)) charge(moved, path, i);
                remove(from, i);
                add(path, moved, i);
            }
            case "copy" -> {
                JsonNode source = get(required(operation, "from", i), i);
                charge(source, path, i);
                add(path, source.deepCopy(), i);
            }
            case "test" -> {
                if (!get(path, i).equals(value(operation, i))) {
                    throw failed(i, "test failed: the value at " + path + " is not the expected one");
                }
            }
            default -> throw ApiException.badRequest("JSON patch operation " + i + ": unknown op \"" + op + "\"");
        }
    }

    /** Counts a value about to be copied (or moved deeper) against the copy budget and the depth limit, before any copying. */
    private void charge(JsonNode value, String path, int index) {
        long remaining = MAX_COPIED_BYTES - copiedBytes;
        TreeMeasure measure = TreeMeasure.of(value, remaining);
        if (measure.over(remaining)) {
            throw failed(index, "copying " + path + " would exceed the limit of " + MAX_COPIED_BYTES + " bytes copied by one patch");
        }
        copiedBytes += measure.bytes();
        checkDepth(path, measure.depth(), index);
    }

    /** A value from the patch body itself (bounded by the body size) may not land too deep either. */
    private static JsonNode boundedDepth(String path, JsonNode value, int index) {
        checkDepth(path, TreeMeasure.of(value, Long.MAX_VALUE).depth(), index);
        return value;
    }

    private static void checkDepth(String path, int valueDepth, int index) {
        int depth = depthOf(path, index) + valueDepth;
        if (depth > ManifestReader.MAX_DEPTH) {
            throw failed(index, "the value at " + abbreviated(path) + " would be nested " + depth + " levels deep, more than the limit of "
                    + ManifestReader.MAX_DEPTH);
        }
    }

    private static int depthOf(String path, int index) {
        return tokens(path, index).size();
    }

    private void add(String path, JsonNode value, int index) {
        if (path.isEmpty()) {
            document = value;
            return;
        }
        Location location = locate(path, index);
        if (location.parent() instanceof ObjectNode object) {
            object.set(location.token(), value);
        } else if (location.parent() instanceof ArrayNode array) {
            if (location.token().equals("-")) {
                array.add(value);
            } else {
                int at = arrayIndex(location.token(), array.size() + 1, index, path);
                shift(array.size() - at, index);
                array.insert(at, value);
            }
        } else {
            throw failed(index, "the parent of " + abbreviated(path) + " is not an object or array");
        }
    }

    private void remove(String path, int index) {
        if (path.isEmpty()) throw failed(index, "cannot remove the whole document");
        Location location = locate(path, index);
        if (location.parent() instanceof ObjectNode object && object.has(location.token())) {
            object.remove(location.token());
        } else if (location.parent() instanceof ArrayNode array) {
            int at = arrayIndex(location.token(), array.size(), index, path);
            shift(array.size() - at - 1, index);
            array.remove(at);
        } else {
            throw failed(index, "no value at " + abbreviated(path));
        }
    }

    private void shift(long elements, int index) {
        shiftedElements += elements;
        if (shiftedElements > MAX_SHIFTED_ELEMENTS) {
            throw failed(index, "the patch moves array elements more than the limit of " + MAX_SHIFTED_ELEMENTS + " times");
        }
    }

    private JsonNode get(String path, int index) {
        JsonNode node = document;
        for (String token : tokens(path, index)) {
            if (node instanceof ArrayNode array) {
                node = array.get(arrayIndex(token, array.size(), index, path));
            } else {
                node = node.get(token);
            }
            if (node == null) throw failed(index, "no value at " + abbreviated(path));
        }
        return node;
    }

    private record Location(JsonNode parent, String token) {}

    private Location locate(String path, int index) {
        List<String> tokens = tokens(path, index);
        String parentPath = path.substring(0, path.lastIndexOf('/'));
        return new Location(get(parentPath, index), tokens.get(tokens.size() - 1));
    }

    private static List<String> tokens(String path, int index) {
        List<String> tokens = new ArrayList<>();
        if (path.isEmpty()) return tokens;
        if (!path.startsWith("/")) throw ApiException.badRequest("JSON patch operation " + index + ": path \"" + abbreviated(path) + "\" must start with /");
        for (String token : path.substring(1).split("/", -1)) tokens.add(token.replace("~1", "/").replace("~0", "~"));
        return tokens;
    }

    private static int arrayIndex(String token, int limit, int index, String path) {
        try {
            int at = Integer.parseInt(token);
            if (at >= 0 && at < limit && (token.equals("0") || !token.startsWith("0"))) return at;
        } catch (NumberFormatException e) {
            // fall through
        }
        throw failed(index, "index " + abbreviated(token) + " of " + abbreviated(path) + " is out of bounds");
    }

    /** Paths come from the caller and may be long; a message quotes at most 200 characters of one. */
    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
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
