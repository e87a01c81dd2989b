package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Workload created directly, checked as Kueue's webhook checks it and completed: spec.priority from
 * spec.priorityClassRef, count defaulted to 1, spec.active defaulted to true.
 */
final class WorkloadNormalizer {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final int MAX_LABEL_LENGTH = 63;
    private static final List<String> ALLOWED_CLASS_REFS = List.of(
            KueueApi.GROUP + "/" + KueueApi.WORKLOAD_PRIORITY_CLASS,
            KueueApi.SCHEDULING_GROUP + "/" + KueueApi.PRIORITY_CLASS);

    private WorkloadNormalizer() {}

    static boolean isDnsLabel(String name) {
        return name.length() <= MAX_LABEL_LENGTH && DNS_LABEL.matcher(name).matches();
    }

    static ObjectNode normalize(ObjectNode original, PriorityResolver resolver) {
        ObjectNode workload = original.deepCopy();
        List<FieldCause> causes = new ArrayList<>();
        JsonNode specNode = workload.path("spec");
        if (!specNode.isObject()) {
            causes.add(FieldCause.required("spec"));
            throw InvalidObjectException.invalid(KueueApi.WORKLOAD, name(workload), causes);
        }
        ObjectNode spec = (ObjectNode) specNode;
        checkPodSets(spec, causes);
        WorkloadPriority priority = priority(spec, resolver, causes);
        JsonNode active = spec.path("active");
        if (!active.isMissingNode() && !active.isNull() && !active.isBoolean()) {
            causes.add(FieldCause.invalid("spec.active", "Invalid value: " + active + ": must be a boolean"));
        }
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(KueueApi.WORKLOAD, name(workload), causes);

        if (priority != null) priority.writeInto(spec);
        else if (spec.path("priority").isIntegralNumber()) spec.put("priority", spec.path("priority").intValue());
        else spec.put("priority", 0);
        if (!active.isBoolean()) spec.put("active", true);
        return workload;
    }

    private static void checkPodSets(ObjectNode spec, List<FieldCause> causes) {
        JsonNode podSets = spec.path("podSets");
        if (!podSets.isArray() || podSets.isEmpty()) {
            causes.add(FieldCause.required("spec.podSets"));
            return;
        }
        if (podSets.size() > WorkloadFactory.MAX_POD_SETS) {
            causes.add(FieldCause.invalid("spec.podSets", "Too many: " + podSets.size() + ": must have at most "
                    + WorkloadFactory.MAX_POD_SETS + " items"));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < podSets.size(); i++) {
            String path = "spec.podSets[" + i + "]";
            JsonNode podSet = podSets.path(i);
            if (!podSet.isObject()) {
                causes.add(FieldCause.invalid(path, "must be an object"));
                continue;
            }
            String name = podSet.path("name").asText("");
            if (name.isEmpty()) {
                causes.add(FieldCause.required(path + ".name"));
            } else if (!isDnsLabel(name)) {
                causes.add(FieldCause.invalid(path + ".name", "Invalid value: \"" + name
                        + "\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"));
            } else if (!names.add(name)) {
                causes.add(new FieldCause(path + ".name", "Duplicate value: \"" + name + "\"", "FieldValueDuplicate"));
            }
            Integer count = IntegerFields.optional(podSet, "count", path + ".count", 0, null, causes);
            if (podSet.path("count").isMissingNode()) {
                ((ObjectNode) podSet).put("count", 1);
                count = 1;
            }
            Integer minCount = IntegerFields.optional(podSet, "minCount", path + ".minCount", 1, null, causes);
            if (minCount != null && count != null && minCount > count) {
                causes.add(FieldCause.invalid(path + ".minCount", "Invalid value: " + minCount + ": must be less than or equal to count (" + count + ")"));
            }
            WorkloadFactory.checkPodSpec(podSet.path("template").path("spec"), path + ".template.spec", causes);
        }
    }

    /** The resolved spec.priorityClassRef, or null when the workload names none. */
    private static WorkloadPriority priority(ObjectNode spec, PriorityResolver resolver, List<FieldCause> causes) {
        JsonNode ref = spec.path("priorityClassRef");
        if (ref.isMissingNode() || ref.isNull()) {
            JsonNode priority = spec.path("priority");
            if (!priority.isMissingNode() && !priority.isNull() && !(priority.isIntegralNumber() && priority.canConvertToInt())) {
                causes.add(FieldCause.invalid("spec.priority", "Invalid value: " + priority + ": must be a 32-bit integer"));
            }
            return null;
        }
        String pair = ref.path("group").asText("") + "/" + ref.path("kind").asText("");
        String name = ref.path("name").asText("");
        if (!ALLOWED_CLASS_REFS.contains(pair)) {
            causes.add(FieldCause.notSupported("spec.priorityClassRef", pair, ALLOWED_CLASS_REFS));
            return null;
        }
        if (name.isEmpty()) {
            causes.add(FieldCause.required("spec.priorityClassRef.name"));
            return null;
        }
        boolean workloadClass = pair.equals(ALLOWED_CLASS_REFS.get(0));
        Integer value = workloadClass ? resolver.workloadPriorityClass(name) : resolver.priorityClass(name);
        if (value == null) {
            String resource = workloadClass ? "workloadpriorityclasses.kueue.x-k8s.io" : "priorityclasses.scheduling.k8s.io";
            causes.add(FieldCause.notFound("spec.priorityClassRef.name", resource + " \"" + name + "\" not found"));
            return null;
        }
        return new WorkloadPriority(workloadClass ? WorkloadPriority.workloadPriorityClassRef(name)
                : WorkloadPriority.priorityClassRef(name), value);
    }

    private static String name(JsonNode workload) {
        return workload.path("metadata").path("name").asText("");
    }
}
