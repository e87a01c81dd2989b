package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.List;

/**
 * A priority written as a number rather than taken from a class. Priority comes from a priority class
 * the caller may {@code use} ({@link PriorityUse}); a Workload that names a class has its spec.priority
 * reset to the class's value when it is admitted. A number with no class behind it (a Workload's
 * spec.priority without spec.priorityClassRef, or a pod spec's priority) is refused with 403 naming the
 * field, unless it is 0 (what a class-less workload gets anyway) or the caller may use every priority
 * class (a {@code use} rule on workloadpriorityclasses without resourceNames, as cluster-admin has):
 * such a caller could name any class, so a bare number gives nothing more.
 */
public final class BarePriority {
    private BarePriority() {}

    /** @throws InvalidObjectException 403 naming the first bare priority the caller may not set */
    public static void check(RbacPolicy policy, UserInfo user, String namespace, String kind, ObjectNode object) {
        List<String> fields = bareFields(kind, object);
        if (fields.isEmpty() || mayUseEveryClass(policy, user, namespace)) return;
        String field = fields.get(0);
        String message = "User \"" + user.name() + "\" cannot set " + field + " directly in the namespace \"" + namespace
                + "\": a priority comes only from a priority class the user may use (name one with "
                + (KueueApi.WORKLOAD.equals(kind) ? "spec.priorityClassRef" : "the " + dev.berth.protocol.Labels.PRIORITY_CLASS + " label or priorityClassName")
                + ")";
        throw new InvalidObjectException(403, "Forbidden", message, List.of(new FieldCause(field, message, "FieldValueForbidden")));
    }

    static List<String> bareFields(String kind, ObjectNode object) {
        List<String> fields = new ArrayList<>();
        JsonNode spec = object.path("spec");
        if (KueueApi.WORKLOAD.equals(kind)) {
            boolean namesClass = !spec.path("priorityClassRef").path("name").asText("").isEmpty();
            if (!namesClass && nonZero(spec.path("priority"))) fields.add("spec.priority");
            JsonNode podSets = spec.path("podSets");
            for (int i = 0; i < podSets.size(); i++) podSpec(podSets.path(i).path("template").path("spec"), "spec.podSets[" + i + "].template.spec", fields);
        } else if (KueueApi.POD.equals(kind)) {
            podSpec(spec, "spec", fields);
        }
        podSpec(spec.path("template").path("spec"), "spec.template.spec", fields);
        JsonNode replicated = spec.path("replicatedJobs");
        for (int i = 0; i < replicated.size(); i++) {
            podSpec(replicated.path(i).path("template").path("spec").path("template").path("spec"),
                    "spec.replicatedJobs[" + i + "].template.spec.template.spec", fields);
        }
        return fields;
    }

    private static void podSpec(JsonNode podSpec, String path, List<String> into) {
        if (nonZero(podSpec.path("priority"))) into.add(path + ".priority");
    }

    /** Present and not the number 0: a string or any other value counts too, so nothing slips through as "not a number". */
    private static boolean nonZero(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) return false;
        return !(value.isNumber() && value.decimalValue().signum() == 0);
    }

    private static boolean mayUseEveryClass(RbacPolicy policy, UserInfo user, String namespace) {
        return policy.allows(user, RequestAttributes.resource(RbacApi.VERB_USE, KueueApi.GROUP, RbacApi.WORKLOAD_PRIORITY_CLASSES, namespace, ""));
    }
}
