package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's rules for an update of a batch/v1 Job (its ValidateJobSpecUpdate and the Job strategy's options).
 * The selector, completionMode, podFailurePolicy, backoffLimitPerIndex, managedBy and successPolicy never change.
 * completions changes only on an Indexed Job, together with parallelism (elastic Indexed Jobs). The pod template
 * never changes, except, while the Job is suspended and has never started, its labels, annotations, nodeSelector,
 * tolerations, node affinity and scheduling gates (the mutable scheduling directives Kueue relies on). Values compare
 * as kube-apiserver compares them ({@link SemanticJson}): absent, null and empty alike, quantities as quantities.
 * Without these rules an update could change what a Workload was derived from, and a worker would run a template
 * other than the one admitted.
 */
public final class JobUpdateRules {
    private static final List<String> IMMUTABLE = List.of("selector", "completionMode", "podFailurePolicy", "backoffLimitPerIndex",
            "managedBy", "successPolicy");

    private JobUpdateRules() {}

    /** Refuses (422, naming the fields) an update of stored into incoming that kube-apiserver refuses. */
    public static void check(JsonNode stored, ObjectNode incoming) {
        JsonNode before = stored.path("spec");
        JsonNode after = incoming.path("spec");
        List<FieldCause> causes = new ArrayList<>();
        for (String field : IMMUTABLE) {
            if (!SemanticJson.same(before.path(field), after.path(field))) causes.add(immutable("spec." + field, ""));
        }
        completions(before, after).ifPresent(causes::add);
        template(stored, before.path("template"), after.path("template")).ifPresent(causes::add);
        if (!causes.isEmpty()) throw InvalidObjectException.invalid("Job.batch", incoming.path("metadata").path("name").asText(""), causes);
    }

    private static Optional<FieldCause> completions(JsonNode before, JsonNode after) {
        if (SemanticJson.same(before.path("completions"), after.path("completions"))) return Optional.empty();
        boolean indexed = "Indexed".equals(after.path("completionMode").asText(""));
        if (!indexed) return Optional.of(immutable("spec.completions", ""));
        if (after.path("completions").isNumber() && after.path("completions").asLong() != after.path("parallelism").asLong(-1)) {
            return Optional.of(FieldCause.invalid("spec.completions", "Invalid value: " + after.path("completions").asLong()
                    + ": can only be modified in tandem with spec.parallelism"));
        }
        return Optional.empty();
    }

    private static Optional<FieldCause> template(JsonNode stored, JsonNode before, JsonNode after) {
        JsonNode comparable = before;
        boolean directivesMutable = stored.path("spec").path("suspend").asBoolean(false)
                && SemanticJson.isEmpty(stored.path("status").path("startTime"));
        if (directivesMutable && before.isObject()) comparable = withDirectivesOf(((ObjectNode) before).deepCopy(), after);
        Optional<String> changed = SemanticJson.firstDifference(comparable, after, "spec.template");
        if (changed.isEmpty()) return Optional.empty();
        String hint = directivesMutable ? "only labels, annotations, nodeSelector, tolerations, node affinity and scheduling gates may change"
                : "the Job is not suspended or has started: nothing in it may change";
        return Optional.of(immutable("spec.template", " (" + changed.get() + " differs; " + hint + ")"));
    }

    /** The stored template with the incoming one's scheduling directives, as the Job strategy allows them to change. */
    private static JsonNode withDirectivesOf(ObjectNode template, JsonNode incoming) {
        ObjectNode metadata = child(template, "metadata");
        copy(incoming.path("metadata"), metadata, "labels");
        copy(incoming.path("metadata"), metadata, "annotations");
        ObjectNode spec = child(template, "spec");
        JsonNode incomingSpec = incoming.path("spec");
        for (String field : List.of("nodeSelector", "tolerations", "schedulingGates")) copy(incomingSpec, spec, field);
        JsonNode wantedNodeAffinity = incomingSpec.path("affinity").path("nodeAffinity");
        if (spec.path("affinity") instanceof ObjectNode affinity) {
            if (wantedNodeAffinity.isMissingNode()) affinity.remove("nodeAffinity");
            else affinity.set("nodeAffinity", wantedNodeAffinity.deepCopy());
            if (SemanticJson.isEmpty(affinity) && SemanticJson.isEmpty(incomingSpec.path("affinity"))) spec.remove("affinity");
        } else if (!wantedNodeAffinity.isMissingNode()) {
            spec.putObject("affinity").set("nodeAffinity", wantedNodeAffinity.deepCopy());
        }
        return template;
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode existing ? existing : parent.putObject(field);
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) to.set(field, from.get(field).deepCopy());
        else to.remove(field);
    }

    private static FieldCause immutable(String field, String detail) {
        return FieldCause.invalid(field, "field is immutable" + detail);
    }
}
