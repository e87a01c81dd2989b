package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random, reproducible (seeded) damage to valid manifests and random patches of every kind: types
 * changed, fields dropped and duplicated, huge, negative and odd numbers and quantities, unicode,
 * deep nesting, random JSON patch operations on real and invented paths.
 */
final class ManifestMutator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] WEIRD_NUMBERS = {"0", "-1", "-0", "1e308", "-1e308", "1e-30", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "4611686018402387.904", "2147483647", "2147483648", "0.000000001",
        "123456789012345678901234567890", "1.5", "3.14159"};
    private static final String[] WEIRD_QUANTITIES = {"1", "-1", "0", "500m", "16Gi", "1e25", "4611686018402387.904",
        "5e15", "9e15", "9.000000000000001e15", "1Ei", "8Ei", "-0", "1.5", "0.0001m", "1000000000000000000000000m",
        "1e-30", "∞", "NaN", "12 Gi", "", "Gi", "0x10", "+1", "1_000", "9223372036854775807", "9223372036854775807m",
        "1E3", "1e+3", "0.5Ki", "7.5e14Ki"};
    private static final String[] WEIRD_STRINGS = {"", " ", "😀", "\u0000", "\u202e", "ñ", "a/b", "../..", "%2e%2e",
        "${jndi:x}", "<script>", "\\", "\"", "\uffff", "ǅ", "team-b", "kube-system", "system:masters", "production",
        "x".repeat(300), "Bad_Name", "-a", "a-", "a..b"};
    private static final String[] KEYS = {"spec", "status", "metadata", "name", "namespace", "labels", "annotations",
        "count", "priority", "priorityClassName", "queueName", "podSets", "template", "containers", "resources",
        "requests", "limits", "cpu", "memory", "nvidia.com/gpu", "parallelism", "completions", "suspend",
        "replicatedJobs", "replicas", "managedFields", "ownerReferences", "finalizers", "resourceVersion", "uid",
        "kueue.x-k8s.io/queue-name", "kueue.x-k8s.io/priority-class", "generateName", "minCount", "topologyRequest"};

    private final Random random;

    ManifestMutator(Random random) {
        this.random = random;
    }

    /** A damaged copy of the manifest: one to four mutations at random places. */
    ObjectNode mutate(ObjectNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) mutateSomewhere(copy);
        return copy;
    }

    private void mutateSomewhere(ObjectNode root) {
        List<Place> places = new ArrayList<>();
        collect(root, places, 0);
        if (places.isEmpty()) return;
        Place place = places.get(random.nextInt(places.size()));
        JsonNode current = place.get();
        switch (random.nextInt(9)) {
            case 0 -> place.remove();
            case 1 -> place.set(anyValue(2));
            case 2 -> place.set(weirdNumber());
            case 3 -> place.set(NODES.textNode(pick(WEIRD_QUANTITIES)));
            case 4 -> place.set(NODES.textNode(pick(WEIRD_STRINGS)));
            case 5 -> place.set(deep(current, 50 + random.nextInt(80)));
            case 6 -> {
                if (current instanceof ArrayNode array && !array.isEmpty()) {
                    int copies = random.nextBoolean() ? 1 : 1 + random.nextInt(20);
                    for (int i = 0; i < copies; i++) array.add(array.get(random.nextInt(array.size())).deepCopy());
                } else if (current instanceof ObjectNode object) {
                    object.set(pick(KEYS), anyValue(2));
                } else {
                    place.set(NODES.arrayNode().add(current).add(current));
                }
            }
            case 7 -> {
                if (current instanceof ObjectNode object) object.set(pick(KEYS), anyValue(3));
                else place.set(NODES.booleanNode(random.nextBoolean()));
            }
            default -> place.set(current.isTextual() ? NODES.numberNode(random.nextInt()) : NODES.textNode(current.toString()));
        }
    }

    /** A random JSON patch of one to eight operations, on paths of the object and on invented ones. */
    String jsonPatch(ObjectNode target) {
        List<Place> places = new ArrayList<>();
        collect(target, places, 0);
        ArrayNode ops = NODES.arrayNode();
        int count = 1 + random.nextInt(8);
        String[] kinds = {"add", "remove", "replace", "move", "copy", "test", "add", "replace", "bogus"};
        for (int i = 0; i < count; i++) {
            ObjectNode op = ops.addObject();
            op.put("op", pick(kinds));
            op.put("path", randomPath(places));
            if (random.nextInt(4) > 0) op.put("from", randomPath(places));
            if (random.nextInt(5) > 0) op.set("value", random.nextBoolean() ? anyValue(3) : places.isEmpty() ? NODES.nullNode()
                    : places.get(random.nextInt(places.size())).get().deepCopy());
        }
        return random.nextInt(20) == 0 ? anyValue(2).toString() : ops.toString();
    }

    /** A merge patch (also sent as a strategic merge patch): a damaged part of the object, with nulls that remove. */
    String mergePatch(ObjectNode target) {
        ObjectNode patch = NODES.objectNode();
        ObjectNode mutated = mutate(target);
        for (Map.Entry<String, JsonNode> field : mutated.properties()) {
            if (random.nextBoolean()) patch.set(field.getKey(), field.getValue());
        }
        if (random.nextInt(4) == 0) patch.putNull(pick(KEYS));
        if (random.nextInt(10) == 0) return random.nextBoolean() ? "[]" : "\"" + pick(WEIRD_STRINGS) + "\"";
        return patch.toString();
    }

    private String randomPath(List<Place> places) {
        String path = places.isEmpty() || random.nextInt(4) == 0 ? "" : places.get(random.nextInt(places.size())).pointer;
        return switch (random.nextInt(8)) {
            case 0 -> path + "/" + pick(KEYS).replace("~", "~0").replace("/", "~1");
            case 1 -> path + "/-";
            case 2 -> path + "/" + (random.nextBoolean() ? random.nextInt(100) : -1);
            case 3 -> path.isEmpty() ? "" : path.substring(1);
            case 4 -> path + "/~2" + pick(WEIRD_STRINGS);
            default -> path;
        };
    }

    JsonNode anyValue(int depth) {
        int choice = random.nextInt(depth <= 0 ? 5 : 8);
        return switch (choice) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> weirdNumber();
            case 3 -> NODES.textNode(pick(WEIRD_QUANTITIES));
            case 4 -> NODES.textNode(pick(WEIRD_STRINGS));
            case 5 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) array.add(anyValue(depth - 1));
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) object.set(pick(KEYS), anyValue(depth - 1));
                yield object;
            }
        };
    }

    private JsonNode weirdNumber() {
        String text = pick(WEIRD_NUMBERS);
        BigDecimal value = new BigDecimal(text);
        if (value.scale() <= 0) return NODES.numberNode(value.toBigIntegerExact());
        return random.nextBoolean() ? NODES.numberNode(value) : NODES.numberNode(value.doubleValue());
    }

    private JsonNode deep(JsonNode inner, int levels) {
        JsonNode node = inner;
        for (int i = 0; i < levels; i++) node = random.nextBoolean() ? NODES.objectNode().set("d", node) : NODES.arrayNode().add(node);
        return node;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    /** A value's place in the tree, by JSON pointer, that can be replaced or removed. */
    private record Place(JsonNode parent, String key, int index, String pointer) {
        JsonNode get() {
            return parent instanceof ArrayNode array ? array.get(index) : parent.get(key);
        }

        void set(JsonNode value) {
            if (parent instanceof ArrayNode array) array.set(index, value);
            else ((ObjectNode) parent).set(key, value);
        }

        void remove() {
            if (parent instanceof ArrayNode array) array.remove(index);
            else ((ObjectNode) parent).remove(key);
        }
    }

    private static void collect(JsonNode node, List<Place> places, int depth) {
        collect(node, "", places, depth);
    }

    private static void collect(JsonNode node, String pointer, List<Place> places, int depth) {
        if (depth > 30) return;
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                String at = pointer + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
                places.add(new Place(object, field.getKey(), -1, at));
                collect(field.getValue(), at, places, depth + 1);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                String at = pointer + "/" + i;
                places.add(new Place(array, null, i, at));
                collect(array.get(i), at, places, depth + 1);
            }
        }
    }

}
