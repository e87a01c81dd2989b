package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/**
 * Upgrades a kueue.x-k8s.io/v1beta1 object to v1beta2 in place, returning the deprecation warnings
 * the API server sends back (one for the version, one per renamed field). Objects of any other
 * apiVersion are left untouched. Values are moved as they are: the decoder validates them afterwards.
 */
public final class ApiVersionConverter {
    static final String V1BETA1 = KueueApi.GROUP + "/" + KueueApi.V1BETA1;
    static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";
    static final String POD_PRIORITY_CLASS_SOURCE = "scheduling.k8s.io/priorityclass";

    private ApiVersionConverter() {}

    public static List<String> toV1beta2(ObjectNode object) {
        if (!V1BETA1.equals(object.path("apiVersion").asText(null))) return List.of();
        String kind = object.path("kind").asText("");
        List<String> warnings = new ArrayList<>();
        warnings.add(V1BETA1 + " " + kind + " is deprecated; use " + KueueApi.API_VERSION);
        object.put("apiVersion", KueueApi.API_VERSION);
        JsonNode spec = object.get("spec");
        if (!(spec instanceof ObjectNode specObject)) return warnings;
        switch (kind) {
            case KueueApi.CLUSTER_QUEUE -> convertClusterQueue(specObject, warnings);
            case KueueApi.COHORT -> rename(specObject, "parent", "parentName", warnings);
            case KueueApi.WORKLOAD -> convertWorkload(specObject, warnings);
            default -> { }
        }
        return warnings;
    }

    private static void convertClusterQueue(ObjectNode spec, List<String> warnings) {
        rename(spec, "cohort", "cohortName", warnings);
        JsonNode checks = spec.remove("admissionChecks");
        if (checks != null) {
            warnings.add("spec.admissionChecks: deprecated, use spec.admissionChecksStrategy.admissionChecks");
            if (checks.isArray()) {
                JsonNode strategy = spec.get("admissionChecksStrategy");
                ObjectNode strategyObject = strategy instanceof ObjectNode existing ? existing : spec.putObject("admissionChecksStrategy");
                JsonNode rules = strategyObject.get("admissionChecks");
                ArrayNode ruleArray = rules instanceof ArrayNode existing ? existing : strategyObject.putArray("admissionChecks");
                for (JsonNode check : checks) ruleArray.addObject().set("name", check);
            } else {
                spec.set("admissionChecksStrategy", checks);
            }
        }
        JsonNode fungibility = spec.get("flavorFungibility");
        if (fungibility instanceof ObjectNode fungibilityObject) {
            replaceValue(fungibilityObject, "whenCanBorrow", "Borrow", "MayStopSearch", warnings);
            replaceValue(fungibilityObject, "whenCanPreempt", "Preempt", "MayStopSearch", warnings);
        }
    }

    private static void convertWorkload(ObjectNode spec, List<String> warnings) {
        JsonNode name = spec.get("priorityClassName");
        if (name == null) return;
        JsonNode source = spec.get("priorityClassSource");
        String sourceText = source == null || source.isNull() ? "" : source.asText();
        String group;
        String kind;
        if (WORKLOAD_PRIORITY_CLASS_SOURCE.equals(sourceText)) {
            group = KueueApi.GROUP;
            kind = KueueApi.WORKLOAD_PRIORITY_CLASS;
        } else if (POD_PRIORITY_CLASS_SOURCE.equals(sourceText) || sourceText.isEmpty()) {
            group = KueueApi.SCHEDULING_GROUP;
            kind = KueueApi.PRIORITY_CLASS;
        } else {
            warnings.add("spec.priorityClassSource: unsupported value \"" + sourceText
                    + "\" left unconverted; use spec.priorityClassRef");
            return;
        }
        spec.remove("priorityClassName");
        spec.remove("priorityClassSource");
        ObjectNode ref = spec.putObject("priorityClassRef");
        ref.put("group", group);
        ref.put("kind", kind);
        ref.set("name", name);
        warnings.add("spec.priorityClassName: deprecated, use spec.priorityClassRef");
        if (source != null) warnings.add("spec.priorityClassSource: deprecated, use spec.priorityClassRef");
    }

    private static void rename(ObjectNode spec, String from, String to, List<String> warnings) {
        JsonNode value = spec.remove(from);
        if (value == null) return;
        if (!spec.has(to)) spec.set(to, value);
        warnings.add("spec." + from + ": deprecated, use spec." + to);
    }

    private static void replaceValue(ObjectNode object, String field, String oldValue, String newValue,
                                     List<String> warnings) {
        if (!oldValue.equals(object.path(field).asText(null))) return;
        object.put(field, newValue);
        warnings.add("spec.flavorFungibility." + field + ": \"" + oldValue + "\" is deprecated, use \"" + newValue + "\"");
    }
}
