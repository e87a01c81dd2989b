package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.List;

/**
 * A submission may name a priority class only if the caller may {@code use} it: a rule granting the
 * verb use on workloadpriorityclasses (kueue.x-k8s.io) or priorityclasses (scheduling.k8s.io) with
 * that class in resourceNames, bound in the submission's namespace or cluster-wide. A submission
 * naming no class is allowed.
 */
public final class PriorityUse {
    /** One place an object names a priority class. */
    public record ClassReference(String field, String group, String resource, String name) {}

    private PriorityUse() {}

    /** @throws InvalidObjectException 403 naming the field of the first class the caller may not use */
    public static void check(RbacPolicy policy, UserInfo user, String namespace, ObjectNode object) {
        for (ClassReference reference : references(object)) {
            RequestAttributes use = RequestAttributes.resource(RbacApi.VERB_USE, reference.group(), reference.resource(), namespace, reference.name());
            if (!policy.allows(user, use)) {
                String message = reference.resource() + "." + reference.group() + " \"" + reference.name() + "\" is forbidden: User \""
                        + user.name() + "\" cannot use priority class \"" + reference.name() + "\" named by " + reference.field()
                        + " in the namespace \"" + namespace + "\"";
                throw new InvalidObjectException(403, "Forbidden", message,
                        List.of(new FieldCause(reference.field(), message, "FieldValueForbidden")));
            }
        }
    }

    public static List<ClassReference> references(ObjectNode object) {
        List<ClassReference> references = new ArrayList<>();
        String label = object.path("metadata").path("labels").path(Labels.PRIORITY_CLASS).asText("");
        if (!label.isEmpty()) references.add(workloadClass("metadata.labels[" + Labels.PRIORITY_CLASS + "]", label));
        JsonNode spec = object.path("spec");
        JsonNode ref = spec.path("priorityClassRef");
        if (ref.isObject() && !ref.path("name").asText("").isEmpty()) {
            boolean workload = KueueApi.WORKLOAD_PRIORITY_CLASS.equals(ref.path("kind").asText());
            references.add(workload ? workloadClass("spec.priorityClassRef.name", ref.path("name").asText())
                    : podClass("spec.priorityClassRef.name", ref.path("name").asText()));
        }
        String source = spec.path("priorityClassSource").asText("");
        String className = spec.path("priorityClassName").asText("");
        if (!className.isEmpty()) {
            references.add(source.contains("workloadpriorityclass") ? workloadClass("spec.priorityClassName", className)
                    : podClass("spec.priorityClassName", className));
        }
        podTemplate(spec.path("template"), "spec.template", references);
        JsonNode replicated = spec.path("replicatedJobs");
        for (int i = 0; i < replicated.size(); i++) {
            podTemplate(replicated.path(i).path("template").path("spec").path("template"),
                    "spec.replicatedJobs[" + i + "].template.spec.template", references);
        }
        JsonNode podSets = spec.path("podSets");
        for (int i = 0; i < podSets.size(); i++) podTemplate(podSets.path(i).path("template"), "spec.podSets[" + i + "].template", references);
        return references;
    }

    private static void podTemplate(JsonNode template, String path, List<ClassReference> into) {
        String name = template.path("spec").path("priorityClassName").asText("");
        if (!name.isEmpty()) into.add(podClass(path + ".spec.priorityClassName", name));
    }

    private static ClassReference workloadClass(String field, String name) {
        return new ClassReference(field, KueueApi.GROUP, RbacApi.WORKLOAD_PRIORITY_CLASSES, name);
    }

    private static ClassReference podClass(String field, String name) {
        return new ClassReference(field, KueueApi.SCHEDULING_GROUP, RbacApi.PRIORITY_CLASSES, name);
    }
}
