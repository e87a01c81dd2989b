package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes the fields a kind's schema does not know, as kube-apiserver's structural pruning (custom
 * resources) and Go decoding (built-in kinds) drop them, and names each one as kube does
 * ({@code spec.template.spec.containers[0].foo}).
 *
 * <p>Kept: what {@code properties} or an {@code additionalProperties} schema describes, anything under
 * {@code additionalProperties: true} or {@code x-kubernetes-preserve-unknown-fields}, and a built-in
 * kind's free-form objects. At the root and in an {@code x-kubernetes-embedded-resource},
 * {@code apiVersion} and {@code kind} are kept and {@code metadata} holds only ObjectMeta's fields.
 * A field the baseline (the object a patch started from) already has at the same place is kept and
 * not reported: the request did not add it.
 */
public final class FieldPruner {
    private final KindSchema kind;
    private final List<String> removed = new ArrayList<>();

    private FieldPruner(KindSchema kind) {
        this.kind = kind;
    }

    /** Prunes object in place; the paths of the fields removed, in document order. */
    public static List<String> prune(KindSchema kind, ObjectNode object, JsonNode baseline) {
        FieldPruner pruner = new FieldPruner(kind);
        pruner.object(kind.root(), object, baseline == null ? MissingNode.getInstance() : baseline, "", true, !kind.custom());
        return List.copyOf(pruner.removed);
    }

    /** builtIn: the schema is (inside) a Kubernetes definition, reached by {@code $ref}, not a CRD's. */
    private void value(JsonNode schemaNode, JsonNode value, JsonNode baseline, String path, boolean builtIn) {
        boolean inDefinition = builtIn || Definitions.refOf(schemaNode) != null;
        JsonNode schema = kind.definitions().resolve(schemaNode);
        if (value instanceof ObjectNode object) {
            object(schema, object, baseline, path, schema.path("x-kubernetes-embedded-resource").asBoolean(false), inDefinition);
        } else if (value instanceof ArrayNode array && schema.has("items")) {
            for (int i = 0; i < array.size(); i++) {
                value(schema.get("items"), array.get(i), baseline.path(i), path + "[" + i + "]", inDefinition);
            }
        }
    }

    private void object(JsonNode schema, ObjectNode object, JsonNode baseline, String path, boolean resource, boolean builtIn) {
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean keepUnknown = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                || (additional != null && additional.isBoolean() && additional.asBoolean())
                || (builtIn && properties == null && additional == null);
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            String childPath = path.isEmpty() ? name : path + "." + name;
            JsonNode child = object.get(name);
            JsonNode childBaseline = baseline.path(name);
            if (resource && name.equals("metadata")) {
                value(objectMeta(), child, childBaseline, childPath, true);
            } else if (properties != null && properties.has(name)) {
                value(properties.get(name), child, childBaseline, childPath, builtIn);
            } else if (additional != null && additional.isObject()) {
                value(additional, child, childBaseline, childPath, builtIn);
            } else if (resource && (name.equals("apiVersion") || name.equals("kind"))) {
                continue;
            } else if (!keepUnknown && !baseline.has(name)) {
                object.remove(name);
                removed.add(childPath);
            }
        }
    }

    private JsonNode objectMeta() {
        return kind.definitions().get(SchemaCatalog.OBJECT_META).orElseThrow();
    }
}
