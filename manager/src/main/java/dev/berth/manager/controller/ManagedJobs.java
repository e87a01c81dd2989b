package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.objects.NamespaceDecoder;
import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
import dev.berth.protocol.Labels;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which Jobs, JobSets and Pods Kueue manages, as its job framework decides: one with the queue-name
 * label always; one without it when {@link ManagedJobsPolicy#manageJobsWithoutQueueName()} is on and
 * its namespace matches the selector. On create, a job without the label in a selected namespace that
 * has a LocalQueue named {@code default} is given {@code queue-name: default} (Kueue's webhook,
 * LocalQueue defaulting). An object whose controller is itself a job Kueue manages (a JobSet's Job) is
 * its owner's business and never managed on its own.
 */
final class ManagedJobs {
    static final String DEFAULT_LOCAL_QUEUE = "default";
    private static final Set<String> MANAGED_OWNER_KINDS = JobKinds.DISPATCHED.stream().map(JobKind::kind).collect(Collectors.toSet());

    private final ManagerState state;

    ManagedJobs(ManagerState state) {
        this.state = state;
    }

    /** Kueue's defaulting webhook on create: the LocalQueue named default, where it exists and applies. */
    void defaultLocalQueue(ObjectNode incoming) {
        if (!frameworkEnabled(incoming) || queued(incoming) || ownedByManagedJob(incoming)) return;
        String namespace = incoming.path("metadata").path("namespace").asText("");
        if (state.find(Resources.LOCAL_QUEUES.resource(), namespace, DEFAULT_LOCAL_QUEUE).isEmpty()) return;
        if (!policy().selects(namespaceLabels(namespace))) return;
        JsonNode metadata = incoming.path("metadata");
        if (!(metadata instanceof ObjectNode object) || !(object.get("labels") == null || object.get("labels").isObject())) return;
        object.with("labels").put(Labels.QUEUE_NAME, DEFAULT_LOCAL_QUEUE);
    }

    /**
     * Whether the object is Kueue's: its framework is enabled (integrations.frameworks), and it is queued
     * by its label or managed without one by the policy.
     */
    boolean manages(ObjectNode object) {
        if (!frameworkEnabled(object)) return false;
        if (queued(object)) return true;
        if (!policy().manageJobsWithoutQueueName() || ownedByManagedJob(object)) return false;
        return policy().selects(namespaceLabels(object.path("metadata").path("namespace").asText("")));
    }

    /**
     * Kueue's job webhook (ValidateUpdateForQueueName): a job that is not suspended keeps its queue-name label, so a
     * running job is never moved to another queue, nor into Kueue's hands or out of them.
     */
    static void checkQueueUnchanged(JsonNode stored, ObjectNode incoming) {
        String before = stored.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText("");
        String after = incoming.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText("");
        if (before.equals(after)) return;
        String apiVersion = incoming.path("apiVersion").asText("");
        String group = apiVersion.contains("/") ? "." + apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        throw InvalidObjectException.invalid(incoming.path("kind").asText("") + group, incoming.path("metadata").path("name").asText(""),
                List.of(FieldCause.invalid("metadata.labels[" + Labels.QUEUE_NAME + "]", "Invalid value: \"" + after + "\": field is immutable")));
    }

    static boolean queued(ObjectNode object) {
        return !object.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText("").isEmpty();
    }

    private ManagedJobsPolicy policy() {
        return state.jobIntegration.managedJobs();
    }

    private Map<String, String> namespaceLabels(String namespace) {
        return state.find(Resources.NAMESPACES.resource(), "", namespace).map(NamespaceDecoder::labels)
                .orElse(Map.of(Labels.NAMESPACE_NAME, namespace));
    }

    private static boolean ownedByManagedJob(ObjectNode object) {
        for (JsonNode owner : object.path("metadata").path("ownerReferences")) {
            if (owner.path("controller").asBoolean(false) && MANAGED_OWNER_KINDS.contains(owner.path("kind").asText())) return true;
        }
        return false;
    }

    private boolean frameworkEnabled(ObjectNode object) {
        return state.frameworks.managesKind(object.path("kind").asText());
    }
}
