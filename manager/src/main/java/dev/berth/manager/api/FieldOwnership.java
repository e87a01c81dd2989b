package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pragmatic server-side apply: ownership is tracked per field manager at the granularity of the
 * top-level fields of {@code spec} (or of the object, for kinds without a spec) and of each label and
 * annotation key, and kept in {@code metadata.managedFields} in the Kubernetes FieldsV1 format.
 * Applying a changed value to a field another manager owns is a 409 Conflict naming the field and
 * the manager, unless {@code force=true}, which takes the field over. Nested fields are not tracked
 * separately: whoever owns {@code spec.resourceGroups} owns all of it.
 */
final class FieldOwnership {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final String APPLY = "Apply";
    static final String UPDATE = "Update";
    /** A conflict answer names at most this many fields (and counts the rest). */
    static final int MAX_CONFLICTS_LISTED = 100;

    private FieldOwnership() {}

    /** One manager's entry: its fields (each a path of segments) and how it set them. */
    record Entry(String manager, String operation, String apiVersion, String time, Set<List<String>> fields) {}

    /** Records an update (create, replace, patch) by manager: the fields it changed become its own. */
    static void recordUpdate(ObjectNode before, ObjectNode after, String manager, Instant now) {
        requireObjectMetadata(after);
        List<Entry> entries = entries(after.path("metadata").has("managedFields") ? after : before);
        Set<List<String>> changed = new LinkedHashSet<>();
        for (List<String> field : fields(after)) {
            if (before == null || !same(at(before, field), at(after, field))) changed.add(field);
        }
        write(after, owned(entries, manager(manager, "unknown"), UPDATE, after.path("apiVersion").asText(), changed, now));
    }

    /**
     * The object after applying a configuration: the live object (null when absent) with every field
     * of the configuration set, and the fields this manager applied before but no longer does removed.
     *
     * @throws ApiException 409 Conflict naming each field another manager owns with another value
     */
    static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, boolean force, Instant now) {
        String applier = manager(manager, null);
        if (applier == null) throw ApiException.badRequest("fieldManager is required for apply requests");
        requireObjectMetadata(applied);
        List<Entry> entries = live == null ? List.of() : entries(live);
        Set<List<String>> appliedFields = fields(applied);
        Map<List<String>, List<Entry>> owners = owners(entries);
        if (!force && live != null) checkConflicts(owners, live, applied, applier, appliedFields);
        ObjectNode result = live == null ? NODES.objectNode() : live.deepCopy();
        for (Entry entry : entries) {
            if (!entry.manager().equals(applier) || !entry.operation().equals(APPLY)) continue;
            for (List<String> field : entry.fields()) {
                if (!appliedFields.contains(field) && !ownedByOther(owners, field, applier)) remove(result, field);
            }
        }
        ObjectNode merged = (ObjectNode) JsonMergePatch.apply(result, withoutManagedFields(applied));
        List<Entry> kept = new ArrayList<>();
        for (Entry entry : entries) {
            Set<List<String>> fields = new LinkedHashSet<>(entry.fields());
            if (!entry.manager().equals(applier)) {
                fields.removeIf(f -> appliedFields.contains(f) && !same(at(live, f), at(applied, f)));
            }
            if (!fields.isEmpty()) kept.add(new Entry(entry.manager(), entry.operation(), entry.apiVersion(), entry.time(), fields));
        }
        kept.removeIf(e -> e.manager().equals(applier) && e.operation().equals(APPLY));
        kept.add(new Entry(applier, APPLY, applied.path("apiVersion").asText(), timestamp(now), appliedFields));
        write(merged, kept);
        return merged;
    }

    /**
     * Which entries own each field: built once, so that checking an apply costs the applied fields plus
     * the owned fields, not their product (a body may carry many fields and an object many managers).
     */
    private static Map<List<String>, List<Entry>> owners(List<Entry> entries) {
        Map<List<String>, List<Entry>> owners = new java.util.HashMap<>();
        for (Entry entry : entries) {
            for (List<String> field : entry.fields()) owners.computeIfAbsent(field, f -> new ArrayList<>()).add(entry);
        }
        return owners;
    }

    private static void checkConflicts(Map<List<String>, List<Entry>> owners, ObjectNode live, ObjectNode applied, String applier,
                                       Set<List<String>> appliedFields) {
        List<dev.berth.manager.objects.FieldCause> causes = new ArrayList<>();
        for (List<String> field : appliedFields) {
            List<Entry> owning = owners.get(field);
            if (owning == null || same(at(live, field), at(applied, field))) continue;
            for (Entry entry : owning) {
                if (!entry.manager().equals(applier)) {
                    causes.add(new dev.berth.manager.objects.FieldCause(display(field),
                            "conflict with \"" + entry.manager() + "\" using " + entry.apiVersion(), "FieldManagerConflict"));
                }
            }
        }
        if (causes.isEmpty()) return;
        StringBuilder message = new StringBuilder("Apply failed with " + causes.size() + " conflict" + (causes.size() == 1 ? "" : "s") + ":");
        for (var cause : causes.subList(0, Math.min(causes.size(), MAX_CONFLICTS_LISTED))) {
            message.append(' ').append(cause.message()).append(": ").append(cause.field());
        }
        if (causes.size() > MAX_CONFLICTS_LISTED) {
            message.append(" and ").append(causes.size() - MAX_CONFLICTS_LISTED).append(" more");
            causes = causes.subList(0, MAX_CONFLICTS_LISTED);
        }
        throw new ApiException(409, "Conflict", message.toString(), live.path("metadata").path("name").asText(null),
                null, null, causes);
    }

    private static boolean ownedByOther(Map<List<String>, List<Entry>> owners, List<String> field, String manager) {
        return owners.getOrDefault(field, List.of()).stream().anyMatch(e -> !e.manager().equals(manager));
    }

    private static List<Entry> owned(List<Entry> entries, String manager, String operation, String apiVersion,
                                     Set<List<String>> fields, Instant now) {
        List<Entry> result = new ArrayList<>();
        Set<List<String>> mine = new LinkedHashSet<>(fields);
        for (Entry entry : entries) {
            if (entry.manager().equals(manager) && entry.operation().equals(operation)) {
                mine.addAll(entry.fields());
                continue;
            }
            Set<List<String>> rest = new LinkedHashSet<>(entry.fields());
            rest.removeAll(fields);
            if (!rest.isEmpty()) result.add(new Entry(entry.manager(), entry.operation(), entry.apiVersion(), entry.time(), rest));
        }
        if (!mine.isEmpty()) result.add(new Entry(manager, operation, apiVersion, timestamp(now), mine));
        return result;
    }

    /** The tracked fields present in an object. */
    static Set<List<String>> fields(JsonNode object) {
        Set<List<String>> fields = new LinkedHashSet<>();
        if (object.has("spec")) {
            object.path("spec").fieldNames().forEachRemaining(f -> fields.add(List.of("spec", f)));
        } else {
            object.fieldNames().forEachRemaining(f -> {
                if (!Set.of("apiVersion", "kind", "metadata", "status").contains(f)) fields.add(List.of(f));
            });
        }
        for (String map : List.of("labels", "annotations")) {
            object.path("metadata").path(map).fieldNames().forEachRemaining(k -> fields.add(List.of("metadata", map, k)));
        }
        return fields;
    }

    static List<Entry> entries(JsonNode object) {
        List<Entry> entries = new ArrayList<>();
        if (object == null) return entries;
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            Set<List<String>> fields = new LinkedHashSet<>();
            collect(entry.path("fieldsV1"), new ArrayList<>(), fields);
            entries.add(new Entry(entry.path("manager").asText(), entry.path("operation").asText(UPDATE),
                    entry.path("apiVersion").asText(), entry.path("time").asText(), fields));
        }
        return entries;
    }

    private static void collect(JsonNode node, List<String> prefix, Set<List<String>> fields) {
        Map<String, JsonNode> children = new LinkedHashMap<>();
        node.properties().forEach(e -> children.put(e.getKey(), e.getValue()));
        if (children.isEmpty() && !prefix.isEmpty()) fields.add(List.copyOf(prefix));
        for (Map.Entry<String, JsonNode> child : children.entrySet()) {
            if (!child.getKey().startsWith("f:")) continue;
            List<String> path = new ArrayList<>(prefix);
            path.add(child.getKey().substring(2));
            collect(child.getValue(), path, fields);
        }
    }

    private static void write(ObjectNode object, List<Entry> entries) {
        ObjectNode metadata = object.with("metadata");
        if (entries.isEmpty()) {
            metadata.remove("managedFields");
            return;
        }
        ArrayNode list = metadata.putArray("managedFields");
        for (Entry entry : entries) {
            ObjectNode fieldsV1 = NODES.objectNode();
            for (List<String> field : entry.fields()) {
                ObjectNode node = fieldsV1;
                for (String segment : field) node = node.with("f:" + segment);
            }
            list.addObject().put("manager", entry.manager()).put("operation", entry.operation())
                    .put("apiVersion", entry.apiVersion()).put("time", entry.time()).put("fieldsType", "FieldsV1")
                    .set("fieldsV1", fieldsV1);
        }
    }

    /** Equal as values: numbers compare by value whatever their node type (YAML and JSON read them differently). */
    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) return a == b;
        return a.equals((x, y) -> x.isNumber() && y.isNumber() ? x.decimalValue().compareTo(y.decimalValue()) : (x.equals(y) ? 0 : 1), b);
    }

    private static JsonNode at(JsonNode object, List<String> field) {
        JsonNode node = object;
        for (String segment : field) node = node.path(segment);
        return node.isMissingNode() ? null : node;
    }

    private static void remove(ObjectNode object, List<String> field) {
        JsonNode parent = object;
        for (String segment : field.subList(0, field.size() - 1)) parent = parent.path(segment);
        if (parent instanceof ObjectNode node) node.remove(field.get(field.size() - 1));
    }

    /** Field ownership is recorded in metadata: a null one counts as absent, any other non-object is refused (400). */
    private static void requireObjectMetadata(ObjectNode object) {
        JsonNode metadata = object.get("metadata");
        if (metadata != null && metadata.isNull()) object.remove("metadata");
        else if (metadata != null && !metadata.isObject()) throw ApiException.badRequest("metadata must be an object");
    }

    private static ObjectNode withoutManagedFields(ObjectNode applied) {
        ObjectNode copy = applied.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode metadata) metadata.remove("managedFields");
        return copy;
    }

    static String display(List<String> field) {
        return "." + String.join(".", field);
    }

    private static String manager(String manager, String otherwise) {
        return manager == null || manager.isBlank() ? otherwise : manager;
    }

    private static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
