package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The list half of a {@link StrategicMergePatch}: replaced lists, merging lists of objects (by merge
 * key, with {@code $patch} elements) and sets of scalars, and the order of the result. Elements are
 * found by their merge key's value through hash maps, so a list costs time linear in its length (plus
 * one sort); the work is charged to the patch's budget.
 */
final class StrategicListMerge {
    private final StrategicMergePatch patch;

    StrategicListMerge(StrategicMergePatch patch) {
        this.patch = patch;
    }

    /**
     * The stored list (null if absent) after the patch list. mergeKey is null for a replaced list and
     * {@link PatchShape#SCALAR_SET} for a set of scalars; order is a $setElementOrder list or null.
     */
    ArrayNode merge(ArrayNode stored, ArrayNode patchList, String mergeKey, PatchShape element, ArrayNode order) {
        patch.charge(patchList.size() + (stored == null ? 0 : stored.size()) + (order == null ? 0 : order.size()));
        if (mergeKey == null) return replaced(patchList, element);
        List<JsonNode> base = new ArrayList<>();
        if (stored != null) stored.forEach(base::add);
        boolean objects = objects(base, patchList);
        if (!objects) return mergedScalars(base, patchList, order);
        if (mergeKey.equals(PatchShape.SCALAR_SET)) throw patch.badRequest("cannot merge lists without merge key");
        return mergedObjects(base, patchList, mergeKey, element, order);
    }

    /** The list without the given scalars ($deleteFromPrimitiveList). */
    ArrayNode withoutScalars(ArrayNode list, ArrayNode deleted) {
        patch.charge(list.size() + deleted.size());
        Set<String> gone = new HashSet<>();
        for (JsonNode value : deleted) gone.add(identity(value));
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        for (JsonNode value : list) if (!gone.contains(identity(value))) kept.add(value);
        return kept;
    }

    private ArrayNode replaced(ArrayNode patchList, PatchShape element) {
        ArrayNode result = JsonNodeFactory.instance.arrayNode();
        for (JsonNode value : patchList) result.add(value.isArray() ? value.deepCopy() : patch.fresh(value, element));
        return result;
    }

    /** Whether the elements are objects (false for scalars or no elements); a mix, or a list of lists, is refused. */
    private boolean objects(List<JsonNode> base, ArrayNode patchList) {
        Boolean objects = null;
        List<JsonNode> all = new ArrayList<>(base);
        patchList.forEach(all::add);
        for (JsonNode value : all) {
            if (value.isArray()) throw patch.listOfLists();
            boolean object = value.isObject();
            if (objects != null && objects != object) throw patch.badRequest("list element types are not identical");
            objects = object;
        }
        return objects != null && objects;
    }

    private ArrayNode mergedScalars(List<JsonNode> base, ArrayNode patchList, ArrayNode order) {
        Map<String, JsonNode> merged = new LinkedHashMap<>();
        for (JsonNode value : base) merged.putIfAbsent(identity(value), value);
        List<JsonNode> patched = new ArrayList<>();
        for (JsonNode value : patchList) {
            merged.putIfAbsent(identity(value), value);
            patched.add(value);
        }
        List<JsonNode> orderList = orderList(order, patched, null);
        return ordered(new ArrayList<>(merged.values()), orderList, base, null);
    }

    private ArrayNode mergedObjects(List<JsonNode> base, ArrayNode patchList, String mergeKey, PatchShape element, ArrayNode order) {
        List<JsonNode> regular = new ArrayList<>();
        Set<String> deleted = new HashSet<>();
        boolean replace = false;
        for (JsonNode value : patchList) {
            JsonNode directive = value.get(StrategicMergePatch.DIRECTIVE);
            if (directive == null) {
                requireKey(value, mergeKey);
                regular.add(value);
                continue;
            }
            switch (directive.isTextual() ? directive.textValue() : "") {
                case "delete" -> deleted.add(identity(requireKey(value, mergeKey)));
                case "replace" -> replace = true;
                case "merge" -> { }
                default -> throw patch.badRequest("unknown patch type: " + StrategicMergePatch.abbreviated(directive.toString()) + " in list element");
            }
        }
        if (replace) return replaced(array(regular), element);
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode value : base) {
            JsonNode key = value.get(mergeKey);
            if (key == null || !deleted.contains(identity(key))) kept.add(value);
        }
        List<JsonNode> merged = new ArrayList<>(kept);
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < merged.size(); i++) {
            JsonNode key = merged.get(i).get(mergeKey);
            if (key != null) positions.putIfAbsent(identity(key), i);
        }
        for (JsonNode value : regular) {
            String key = identity(value.get(mergeKey));
            Integer at = positions.get(key);
            patch.enter("[" + mergeKey + "=" + StrategicMergePatch.abbreviated(value.get(mergeKey).asText()) + "]");
            if (at != null) {
                merged.set(at, patch.mergeObject((ObjectNode) merged.get(at), (ObjectNode) value, element));
            } else {
                merged.add(patch.fresh(value, element));
                positions.put(key, merged.size() - 1);
            }
            patch.leave();
        }
        return ordered(merged, orderList(order, regular, mergeKey), kept, mergeKey);
    }

    /** The list giving the order: the $setElementOrder list (checked against the patch's own order) or the patch's elements. */
    private List<JsonNode> orderList(ArrayNode order, List<JsonNode> patched, String mergeKey) {
        if (order == null) return patched;
        List<JsonNode> orderList = new ArrayList<>();
        for (JsonNode value : order) {
            if (mergeKey != null) requireKey(value, mergeKey);
            orderList.add(value);
        }
        int p = 0;
        for (int o = 0; p < patched.size() && o < orderList.size(); o++) {
            if (identity(key(patched.get(p), mergeKey)).equals(identity(key(orderList.get(o), mergeKey)))) p++;
        }
        if (p < patched.size() && !orderList.isEmpty()) {
            throw patch.badRequest("invalid patch format of setElementOrder list: the order in the patch list doesn't match the $setElementOrder list");
        }
        return orderList;
    }

    /**
     * kube's order: the elements the order list names, in its order, interleaved with the rest in their
     * stored order; where both are stored, the one stored first comes first, otherwise the patched one.
     */
    private ArrayNode ordered(List<JsonNode> merged, List<JsonNode> orderList, List<JsonNode> stored, String mergeKey) {
        Map<String, Integer> wanted = firstPositions(orderList, mergeKey);
        Map<String, Integer> storedAt = firstPositions(stored, mergeKey);
        List<JsonNode> patched = new ArrayList<>();
        List<JsonNode> storedOnly = new ArrayList<>();
        for (JsonNode value : merged) {
            JsonNode key = key(value, mergeKey);
            if (key != null && wanted.containsKey(identity(key))) patched.add(value);
            else storedOnly.add(value);
        }
        patched.sort(Comparator.comparingInt(value -> wanted.get(identity(key(value, mergeKey)))));
        ArrayNode result = JsonNodeFactory.instance.arrayNode();
        int s = 0;
        int p = 0;
        while (s < storedOnly.size() || p < patched.size()) {
            if (p >= patched.size()) {
                result.add(storedOnly.get(s++));
            } else if (s >= storedOnly.size()) {
                result.add(patched.get(p++));
            } else {
                Integer left = position(storedAt, storedOnly.get(s), mergeKey);
                Integer right = position(storedAt, patched.get(p), mergeKey);
                result.add(left != null && right != null && left < right ? storedOnly.get(s++) : patched.get(p++));
            }
        }
        return result;
    }

    private static Integer position(Map<String, Integer> positions, JsonNode value, String mergeKey) {
        JsonNode key = key(value, mergeKey);
        return key == null ? null : positions.get(identity(key));
    }

    private static Map<String, Integer> firstPositions(List<JsonNode> values, String mergeKey) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < values.size(); i++) {
            JsonNode key = key(values.get(i), mergeKey);
            if (key != null) positions.putIfAbsent(identity(key), i);
        }
        return positions;
    }

    /** The element's merge key value, or the element itself for scalars (mergeKey null). */
    private static JsonNode key(JsonNode value, String mergeKey) {
        return mergeKey == null ? value : value.get(mergeKey);
    }

    private JsonNode requireKey(JsonNode value, String mergeKey) {
        JsonNode key = value.get(mergeKey);
        if (key == null) throw patch.badRequest("map: " + StrategicMergePatch.abbreviated(value.toString()) + " does not contain declared merge key: " + mergeKey);
        return key;
    }

    /**
     * A scalar's identity for matching, as Go compares decoded JSON: numbers by value (80 and 80.0 are
     * one), strings and booleans by value and type. Objects and arrays match by their JSON text.
     */
    static String identity(JsonNode value) {
        if (value.isIntegralNumber()) return "n:" + value.bigIntegerValue();
        if (value.isNumber()) {
            double number = value.doubleValue();
            if (number == Math.rint(number) && Math.abs(number) < 1e15) return "n:" + (long) number;
            return "n:" + number;
        }
        if (value.isTextual()) return "s:" + value.textValue();
        if (value.isBoolean() || value.isNull()) return value.toString();
        return "j:" + value;
    }

    private static ArrayNode array(List<JsonNode> values) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        values.forEach(array::add);
        return array;
    }
}
