package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.NamespaceLifecycle;
import dev.berth.manager.api.ForwardingObjectHooks;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.List;
import java.util.Optional;

/**
 * A Namespace as kube-apiserver's namespace strategy writes it: the label
 * {@code kubernetes.io/metadata.name: <name>} is set on every create and update (a client's change or
 * removal is overwritten, not refused); a new namespace is {@code Active} with the {@code kubernetes}
 * finalizer in spec.finalizers, which an update cannot change; a status write keeps the phase
 * consistent with the deletionTimestamp. Decoding and the controller's view are the delegate's.
 */
final class NamespaceHooks extends ForwardingObjectHooks {
    NamespaceHooks(ObjectHooks delegate) {
        super(delegate);
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        canonicalize(incoming);
        if (op == Operation.CREATE) {
            incoming.putObject("status").put("phase", NamespaceLifecycle.PHASE_ACTIVE);
            requireKubernetesFinalizer(incoming);
        } else if (existing.isPresent()) {
            ObjectNode old = existing.get().object();
            JsonNode finalizers = old.path("spec").path("finalizers");
            if (finalizers.isArray()) incoming.with("spec").set("finalizers", finalizers.deepCopy());
            else if (incoming.path("spec").isObject()) ((ObjectNode) incoming.get("spec")).remove("finalizers");
            keepDeletion(old, incoming);
        }
        return super.admit(incoming, existing, op);
    }

    /**
     * A namespace being deleted stays so whatever the update says, and takes no new metadata.finalizers
     * (kube-apiserver: "no new finalizers can be added if the object is being deleted").
     */
    private static void keepDeletion(ObjectNode old, ObjectNode incoming) {
        ObjectNode oldMetadata = (ObjectNode) old.get("metadata");
        if (oldMetadata == null || !oldMetadata.has("deletionTimestamp") || !(incoming.get("metadata") instanceof ObjectNode metadata)) return;
        metadata.set("deletionTimestamp", oldMetadata.get("deletionTimestamp"));
        if (oldMetadata.has("deletionGracePeriodSeconds")) metadata.set("deletionGracePeriodSeconds", oldMetadata.get("deletionGracePeriodSeconds"));
        java.util.Set<String> before = new java.util.HashSet<>();
        for (JsonNode finalizer : oldMetadata.path("finalizers")) before.add(finalizer.asText());
        for (JsonNode finalizer : metadata.path("finalizers")) {
            if (!before.contains(finalizer.asText())) {
                throw InvalidObjectException.invalid(KueueApi.NAMESPACE, metadata.path("name").asText(), List.of(new FieldCause("metadata.finalizers",
                        "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers [\"" + finalizer.asText() + "\"]",
                        "FieldValueForbidden")));
            }
        }
    }

    /** Sets the name label, as kube-apiserver's Canonicalize does; a non-object labels field is left to validation. */
    static void canonicalize(ObjectNode namespace) {
        JsonNode metadata = namespace.get("metadata");
        if (!(metadata instanceof ObjectNode meta)) return;
        String name = meta.path("name").asText("");
        if (name.isEmpty()) return;
        JsonNode labels = meta.get("labels");
        if (labels == null || labels.isNull()) meta.putObject("labels").put(Labels.NAMESPACE_NAME, name);
        else if (labels instanceof ObjectNode map) map.put(Labels.NAMESPACE_NAME, name);
    }

    static void requireKubernetesFinalizer(ObjectNode namespace) {
        JsonNode spec = namespace.get("spec");
        ObjectNode specObject = spec instanceof ObjectNode object ? object : namespace.putObject("spec");
        JsonNode current = specObject.get("finalizers");
        ArrayNode finalizers = current instanceof ArrayNode array ? array : specObject.putArray("finalizers");
        for (JsonNode finalizer : finalizers) if (NamespaceLifecycle.KUBERNETES_FINALIZER.equals(finalizer.asText())) return;
        finalizers.add(NamespaceLifecycle.KUBERNETES_FINALIZER);
    }

    /** kube-apiserver's ValidateNamespaceStatusUpdate: Active without a deletionTimestamp, Terminating with one. */
    @Override
    public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
        boolean deleting = existing.object().path("metadata").has("deletionTimestamp");
        String expected = deleting ? NamespaceLifecycle.PHASE_TERMINATING : NamespaceLifecycle.PHASE_ACTIVE;
        String phase = status.path("phase").asText("");
        if (phase.isEmpty()) {
            status.put("phase", expected);
        } else if (!phase.equals(expected)) {
            throw InvalidObjectException.invalid(KueueApi.NAMESPACE, existing.key().name(), List.of(FieldCause.invalid("status.phase",
                    "Invalid value: \"" + phase + "\": may only be '" + expected + "' if `deletionTimestamp` is "
                            + (deleting ? "not empty" : "empty"))));
        }
        return super.admitStatus(status, existing);
    }
}
