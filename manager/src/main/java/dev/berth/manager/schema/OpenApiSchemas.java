package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The named schemas of an OpenAPI document for a set of kinds, as kube-apiserver publishes them: a
 * built-in kind under its Kubernetes definition name, a custom kind under its REST-friendly name
 * ({@code io.x-k8s.kueue.v1beta2.ClusterQueue}) with its metadata pointing at ObjectMeta, each
 * tagged with {@code x-kubernetes-group-version-kind}, plus every definition they refer to. Refs
 * point at {@code #/components/schemas/} (v3) or {@code #/definitions/} (v2).
 */
public final class OpenApiSchemas {
    public static final String V3_REFS = "#/components/schemas/";
    public static final String V2_REFS = "#/definitions/";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** OpenAPI v3 keywords swagger 2.0 lacks; kube-apiserver drops them from the v2 document too. */
    private static final List<String> NOT_IN_V2 = List.of("anyOf", "oneOf", "not", "nullable");

    private OpenApiSchemas() {}

    /** The schemas of the kinds the catalog knows, sorted by name; kinds it does not know are left out. */
    public static ObjectNode of(SchemaCatalog catalog, List<SchemaCatalog.GroupVersionKind> kinds, String refPrefix) {
        Map<String, JsonNode> named = new TreeMap<>();
        List<JsonNode> roots = new ArrayList<>();
        for (SchemaCatalog.GroupVersionKind gvk : kinds) {
            catalog.schema(gvk.group(), gvk.version(), gvk.kind()).ifPresent(kind -> {
                JsonNode schema = kind.custom() ? customKind(kind) : kind.root();
                named.put(kind.definitionName(), schema);
                roots.add(schema);
            });
        }
        roots.add(catalog.definitions().get(SchemaCatalog.OBJECT_META).orElseThrow());
        for (String name : catalog.definitions().reachableFrom(roots)) {
            if (!named.containsKey(name)) catalog.definitions().get(name).ifPresent(definition -> named.put(name, definition));
        }
        ObjectNode schemas = NODES.objectNode();
        named.forEach((name, schema) -> schemas.set(name, rewritten(schema.deepCopy(), refPrefix)));
        return schemas;
    }

    private static JsonNode customKind(KindSchema kind) {
        ObjectNode schema = ((ObjectNode) kind.root()).deepCopy();
        ObjectNode properties = schema.with("properties");
        properties.putObject("metadata").put("description", "Standard object's metadata. More info: "
                + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata")
                .putArray("allOf").addObject().put("$ref", V2_REFS + SchemaCatalog.OBJECT_META);
        ArrayNode gvks = schema.putArray("x-kubernetes-group-version-kind");
        gvks.addObject().put("group", kind.gvk().group()).put("kind", kind.gvk().kind()).put("version", kind.gvk().version());
        return schema;
    }

    /** Points refs at the document's section; in a v2 document also drops what swagger 2.0 cannot say. */
    private static JsonNode rewritten(JsonNode node, String refPrefix) {
        if (node instanceof ObjectNode object) {
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(V2_REFS)) {
                object.put("$ref", refPrefix + ref.asText().substring(V2_REFS.length()));
            }
            if (refPrefix.equals(V2_REFS)) object.remove(NOT_IN_V2);
            for (Iterator<JsonNode> values = object.elements(); values.hasNext(); ) rewritten(values.next(), refPrefix);
        } else if (node.isArray()) {
            for (JsonNode item : node) rewritten(item, refPrefix);
        }
        return node;
    }
}
