package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Named OpenAPI definitions that schemas point into with {@code $ref}; read-only. */
public final class Definitions {
    private static final String V2_PREFIX = "#/definitions/";
    private static final String V3_PREFIX = "#/components/schemas/";

    private final ObjectNode byName;

    Definitions(ObjectNode byName) {
        this.byName = byName;
    }

    public Optional<JsonNode> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    List<String> names() {
        List<String> names = new ArrayList<>();
        byName.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The schema a node stands for: the definition its {@code $ref} (or single-{@code allOf} ref) names, or itself. */
    JsonNode resolve(JsonNode schema) {
        JsonNode current = schema;
        for (int hops = 0; hops < 8; hops++) {
            String ref = refOf(current);
            if (ref == null) return current;
            JsonNode target = byName.get(ref);
            if (target == null) return current;
            current = target;
        }
        return current;
    }

    /** The definition name a schema points to, or null. */
    static String refOf(JsonNode schema) {
        JsonNode ref = schema.get("$ref");
        if (ref == null && schema.path("allOf").size() == 1) ref = schema.path("allOf").get(0).get("$ref");
        if (ref == null || !ref.isTextual()) return null;
        String text = ref.asText();
        if (text.startsWith(V2_PREFIX)) return text.substring(V2_PREFIX.length());
        if (text.startsWith(V3_PREFIX)) return text.substring(V3_PREFIX.length());
        return null;
    }

    /** The names reachable from the given schemas through {@code $ref}, the roots' own refs included. */
    public Set<String> reachableFrom(Iterable<JsonNode> roots) {
        Set<String> seen = new LinkedHashSet<>();
        List<JsonNode> todo = new ArrayList<>();
        roots.forEach(todo::add);
        while (!todo.isEmpty()) {
            JsonNode node = todo.remove(todo.size() - 1);
            collect(node, seen, todo);
        }
        return seen;
    }

    private void collect(JsonNode node, Set<String> seen, List<JsonNode> todo) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual()) {
                String name = refOf(node);
                if (name != null && seen.add(name) && byName.has(name)) todo.add(byName.get(name));
            }
            for (Iterator<JsonNode> values = node.elements(); values.hasNext(); ) collect(values.next(), seen, todo);
        } else if (node.isArray()) {
            for (JsonNode item : node) collect(item, seen, todo);
        }
    }
}
