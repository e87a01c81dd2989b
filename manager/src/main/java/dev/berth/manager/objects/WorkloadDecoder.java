package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.Toleration;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.KueueApi;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a stored v1beta2 Workload into what the scheduler decides over. */
public final class WorkloadDecoder {
    private WorkloadDecoder() {}

    /** The scheduler's view of a (normalized) Workload. Throws 422 if a pod set cannot be read. */
    public static WorkloadRequest request(ObjectNode workload) {
        return request(workload, WorkloadResourcePolicy.NONE);
    }

    /**
     * The scheduler's view of a Workload, each pod's requests counted as the manager's
     * {@link WorkloadResourcePolicy} says (excluded prefixes dropped, transformations applied).
     */
    public static WorkloadRequest request(ObjectNode workload, WorkloadResourcePolicy resources) {
        JsonNode metadata = workload.path("metadata");
        JsonNode spec = workload.path("spec");
        List<FieldCause> causes = new ArrayList<>();
        long creationMillis = creationMillis(metadata.path("creationTimestamp"), causes);
        List<PodSetRequest> podSets = new ArrayList<>();
        RequestTotals totals = new RequestTotals();
        JsonNode podSetNodes = spec.path("podSets");
        for (int i = 0; i < podSetNodes.size(); i++) {
            PodSetRequest podSet = podSet(podSetNodes.path(i), "spec.podSets[" + i + "]", resources, causes);
            totals.add(podSet.perPodRequests(), podSet.count(), "spec.podSets[" + i + "].count", causes);
            podSets.add(podSet);
        }
        int priority = spec.path("priority").asInt(0);
        Long maximumExecutionTime = maximumExecutionTimeSeconds(spec.path("maximumExecutionTimeSeconds"), causes);
        String name = metadata.path("name").asText("");
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(KueueApi.WORKLOAD, name, causes);
        return new WorkloadRequest(WorkloadKey.of(metadata.path("namespace").asText(""), name),
                spec.path("queueName").asText(""), priority, creationMillis, podSets, maximumExecutionTime,
                spec.path("priorityClassRef").path("name").asText(""));
    }

    /** spec.maximumExecutionTimeSeconds: absent, or an integer of at least 1 (Kueue's CRD minimum). */
    private static Long maximumExecutionTimeSeconds(JsonNode value, List<FieldCause> causes) {
        if (value.isMissingNode() || value.isNull()) return null;
        if (value.isIntegralNumber() && value.canConvertToInt() && value.intValue() >= 1) return value.longValue();
        causes.add(FieldCause.invalid("spec.maximumExecutionTimeSeconds",
                "Invalid value: " + value + ": spec.maximumExecutionTimeSeconds in body should be greater than or equal to 1"));
        return null;
    }

    /** spec.active, true unless set to false. */
    public static boolean active(ObjectNode workload) {
        return workload.path("spec").path("active").asBoolean(true);
    }

    private static long creationMillis(JsonNode timestamp, List<FieldCause> causes) {
        if (!timestamp.isTextual() || timestamp.textValue().isEmpty()) return 0L;
        try {
            return OffsetDateTime.parse(timestamp.textValue()).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            causes.add(FieldCause.invalid("metadata.creationTimestamp",
                    "Invalid value: \"" + timestamp.textValue() + "\": must be an RFC 3339 date-time"));
            return 0L;
        }
    }

    private static PodSetRequest podSet(JsonNode podSet, String path, WorkloadResourcePolicy resources, List<FieldCause> causes) {
        JsonNode podSpec = podSet.path("template").path("spec");
        ObjectNode spec = podSpec.isObject() ? (ObjectNode) podSpec : JsonNodeFactory.instance.objectNode();
        Map<String, Long> perPod = resources.quotaRequests(PodRequests.perPod(spec, path + ".template.spec", causes));
        int count = IntegerFields.optional(podSet, "count", path + ".count", 0, 1, causes);
        Integer minCount = IntegerFields.optional(podSet, "minCount", path + ".minCount", 1, null, causes);
        PodSetTopologyRequests.validate(podSet.path("topologyRequest"), path + ".topologyRequest", count, causes);
        return new PodSetRequest(podSet.path("name").asText(""), count, minCount, perPod,
                nodeSelector(spec.path("nodeSelector")), requiredNodeAffinity(spec), tolerations(spec.path("tolerations")));
    }

    private static Map<String, String> nodeSelector(JsonNode selector) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            labels.put(entry.getKey(), entry.getValue().asText());
        }
        return labels;
    }

    private static List<List<LabelRequirement>> requiredNodeAffinity(JsonNode podSpec) {
        JsonNode terms = podSpec.path("affinity").path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
        List<List<LabelRequirement>> result = new ArrayList<>();
        for (JsonNode term : terms) {
            List<LabelRequirement> requirements = new ArrayList<>();
            for (JsonNode expression : term.path("matchExpressions")) {
                List<String> values = new ArrayList<>();
                for (JsonNode value : expression.path("values")) values.add(value.asText());
                requirements.add(new LabelRequirement(expression.path("key").asText(""),
                        expression.path("operator").asText(""), values));
            }
            result.add(requirements);
        }
        return result;
    }

    private static List<Toleration> tolerations(JsonNode tolerations) {
        List<Toleration> result = new ArrayList<>();
        for (JsonNode toleration : tolerations) {
            result.add(new Toleration(text(toleration, "key"), text(toleration, "operator"),
                    text(toleration, "value"), text(toleration, "effect")));
        }
        return result;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }
}
