package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/**
 * Converts Kueue objects between kueue.x-k8s.io/v1beta1 and v1beta2 (the storage version), after
 * Kueue's own conversion functions: {@link #toV1beta2} on every write, {@link #toV1beta1} for every
 * answer through a v1beta1 URL. Fields with no counterpart travel in an annotation
 * ({@link V1beta1Fields}, {@link ConversionStash}), so a round trip either way loses nothing.
 * Values are moved as they are: the decoder validates them afterwards.
 */
public final class ApiVersionConverter {
    static final String V1BETA1 = KueueApi.GROUP + "/" + KueueApi.V1BETA1;
    static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";
    static final String POD_PRIORITY_CLASS_SOURCE = "scheduling.k8s.io/priorityclass";

    private ApiVersionConverter() {}

    /**
     * Upgrades a v1beta1 object to v1beta2 in place, returning the deprecation warnings the API server
     * sends back (one for the version, one per renamed spec field). Objects of any other apiVersion are
     * left untouched.
     */
    public static List<String> toV1beta2(ObjectNode object) {
        if (!V1BETA1.equals(object.path("apiVersion").asText(null))) return List.of();
        String kind = object.path("kind").asText("");
        List<String> warnings = new ArrayList<>();
        warnings.add(V1BETA1 + " " + kind + " is deprecated; use " + KueueApi.API_VERSION);
        object.put("apiVersion", KueueApi.API_VERSION);
        JsonNode spec = object.get("spec");
        if (spec instanceof ObjectNode specObject) {
            switch (kind) {
                case KueueApi.CLUSTER_QUEUE -> convertClusterQueue(specObject, warnings);
                case KueueApi.COHORT -> rename(specObject, "parent", "parentName", warnings);
                case KueueApi.WORKLOAD -> convertWorkload(specObject, warnings);
                case KueueApi.MULTIKUEUE_CLUSTER -> MultiKueueClusterSource.toV1beta2(specObject, warnings);
                default -> { }
            }
        }
        if (object.get("status") instanceof ObjectNode status) {
            switch (kind) {
                case KueueApi.LOCAL_QUEUE -> move(status, "flavorUsage", "flavorsUsage");
                case KueueApi.WORKLOAD -> move(status, "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds");
                default -> { }
            }
        }
        ConversionStash.drop(object, V1beta1Fields.onlyInV1beta1Status(kind));
        ConversionStash.stash(object, V1beta1Fields.onlyInV1beta1Spec(kind), Annotations.V1BETA1_FIELDS);
        ConversionStash.restore(object, V1beta1Fields.onlyInV1beta2(kind), Annotations.V1BETA2_FIELDS);
        return warnings;
    }

    /**
     * Downgrades a stored (v1beta2) Kueue object in place to the shape a v1beta1 client reads: the
     * inverse of {@link #toV1beta2} for every field v1beta1 has, the rest in an annotation.
     */
    public static void toV1beta1(ObjectNode object) {
        String kind = object.path("kind").asText("");
        object.put("apiVersion", V1BETA1);
        ConversionStash.restore(object, V1beta1Fields.onlyInV1beta1Spec(kind), Annotations.V1BETA1_FIELDS);
        if (object.get("spec") instanceof ObjectNode spec) {
            switch (kind) {
                case KueueApi.CLUSTER_QUEUE -> move(spec, "cohortName", "cohort");
                case KueueApi.WORKLOAD -> downgradePriorityClassRef(spec);
                case KueueApi.MULTIKUEUE_CLUSTER -> MultiKueueClusterSource.toV1beta1(spec);
                default -> { }
            }
        }
        if (object.get("status") instanceof ObjectNode status) {
            switch (kind) {
                case KueueApi.LOCAL_QUEUE -> move(status, "flavorsUsage", "flavorUsage");
                case KueueApi.WORKLOAD -> move(status, "accumulatedPastExecutionTimeSeconds", "accumulatedPastExexcutionTimeSeconds");
                default -> { }
            }
        }
        ConversionStash.stash(object, V1beta1Fields.onlyInV1beta2(kind), Annotations.V1BETA2_FIELDS);
    }

    /**
     * A status written through v1beta1's status subresource, as v1beta2: the status is converted inside
     * its object (whose annotations may carry v1beta2-only status fields); the rest is not written.
     */
    public static ObjectNode statusToV1beta2(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        toV1beta2(copy);
        return copy.get("status") instanceof ObjectNode status ? status : copy.objectNode();
    }

    /** A priorityClassRef v1beta1 can name becomes priorityClassName and priorityClassSource; any other stays (and is stashed). */
    private static void downgradePriorityClassRef(ObjectNode spec) {
        JsonNode ref = spec.get("priorityClassRef");
        if (ref == null || !ref.path("name").isTextual()) return;
        String group = ref.path("group").asText("");
        String kind = ref.path("kind").asText("");
        String source;
        if (group.equals(KueueApi.GROUP) && kind.equals(KueueApi.WORKLOAD_PRIORITY_CLASS)) {
            source = WORKLOAD_PRIORITY_CLASS_SOURCE;
        } else if (group.equals(KueueApi.SCHEDULING_GROUP) && kind.equals(KueueApi.PRIORITY_CLASS)) {
            source = POD_PRIORITY_CLASS_SOURCE;
        } else {
            return;
        }
        spec.remove("priorityClassRef");
        spec.set("priorityClassName", ref.get("name"));
        spec.put("priorityClassSource", source);
    }

    /** Renames a field without a warning (status fields, and every field on the way down). */
    static void move(ObjectNode object, String from, String to) {
        JsonNode value = object.remove(from);
        if (value != null && !object.has(to)) object.set(to, value);
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
