package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.DeleteOptions.Propagation;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Function;

/**
 * The delete of a Namespace, as kube-apiserver and its namespace controller do it, but at once on the
 * state thread: the namespace is marked (phase Terminating, deletionTimestamp, the {@code kubernetes}
 * finalizer; watchers see MODIFIED), every object of every namespaced kind the registry serves is
 * deleted in it through {@link CascadingDelete} (so each kind's {@code deleted} hook runs: a Workload
 * releases its quota, a LocalQueue leaves its ClusterQueue), then the namespace itself is removed
 * (watchers see DELETED). A namespace that still holds metadata.finalizers stays Terminating, empty,
 * until an update removes the last one ({@link #finishIfReleased}). A hook that writes into the namespace while it empties (an Event about a
 * deleted object) is caught by another pass, up to {@link #MAX_PASSES}. One instance serves one request.
 */
final class NamespaceTermination {
    static final int MAX_PASSES = 3;

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final Function<ResourceType, ObjectHooks> hooks;
    private final Clock clock;

    NamespaceTermination(ObjectStore store, ResourceRegistry registry, Function<ResourceType, ObjectHooks> hooks, Clock clock) {
        this.store = store;
        this.registry = registry;
        this.hooks = hooks;
        this.clock = clock;
    }

    /**
     * Terminates the namespace as stored now; with {@code contents} false (a dry run) only the
     * namespace's own answer is computed.
     *
     * @return the namespace as marked Terminating, which is what kube-apiserver answers the delete with
     */
    StoredObject terminate(ResourceType namespaces, StoredObject namespace, Propagation propagation, boolean contents) {
        StoredObject marked = markTerminating(namespace, contents);
        if (contents) {
            String name = namespace.key().name();
            for (int pass = 0; pass < MAX_PASSES && deleteContents(name) > 0; pass++) {
                // each pass deletes what the previous one's hooks wrote into the namespace
            }
        }
        if (!contents) return marked;
        StoredObject current = store.get(marked.key()).orElse(marked);
        if (hasFinalizers(current)) {
            dropKubernetesFinalizer(current);
            return marked;
        }
        new CascadingDelete(store, registry, hooks, clock).delete(namespaces, current, propagation);
        return marked;
    }

    /**
     * After an update of a Terminating namespace: once its last metadata.finalizers entry is gone, what
     * was written into it meanwhile is deleted, and so is the namespace (as kube-apiserver deletes an
     * object whose last finalizer is removed).
     */
    void finishIfReleased(ResourceType namespaces, StoredObject updated) {
        if (!updated.object().path("metadata").has("deletionTimestamp") || hasFinalizers(updated)) return;
        terminate(namespaces, updated, Propagation.BACKGROUND, true);
    }

    /** metadata.finalizers (other controllers' claims, which keep a Terminating namespace until removed). */
    private static boolean hasFinalizers(StoredObject namespace) {
        JsonNode finalizers = namespace.object().path("metadata").path("finalizers");
        return finalizers.isArray() && !finalizers.isEmpty();
    }

    /** What kube's namespace controller does through /finalize once the content is gone. */
    private void dropKubernetesFinalizer(StoredObject namespace) {
        ObjectNode object = namespace.object();
        JsonNode finalizers = object.path("spec").path("finalizers");
        if (!finalizers.isArray()) return;
        ArrayNode kept = object.arrayNode();
        for (JsonNode finalizer : finalizers) if (!NamespaceLifecycle.KUBERNETES_FINALIZER.equals(finalizer.asText())) kept.add(finalizer);
        if (kept.size() == finalizers.size()) return;
        object.with("spec").set("finalizers", kept);
        store.replace(namespace.key(), object, Long.toString(namespace.resourceVersion()));
    }

    /** Deletes every object of the namespace, each with its dependents; returns how many it deleted. */
    int deleteContents(String namespace) {
        CascadingDelete cascade = new CascadingDelete(store, registry, hooks, clock);
        int deleted = 0;
        for (ResourceType type : registry.types()) {
            if (!type.namespaced()) continue;
            for (StoredObject listed : store.list(type.resource(), namespace)) {
                Optional<StoredObject> current = store.get(listed.key());
                if (current.isEmpty()) continue;
                try {
                    cascade.delete(type, current.get(), Propagation.BACKGROUND);
                    deleted++;
                } catch (NotFoundException collectedMeanwhile) {
                    // an earlier cascade of this pass took it
                }
            }
        }
        return deleted;
    }

    /**
     * Writes the namespace as Terminating: its status first, then the deletionTimestamp and finalizer,
     * so the last MODIFIED event a watcher sees carries both. A dry run only computes it.
     */
    private StoredObject markTerminating(StoredObject namespace, boolean write) {
        if (namespace.object().path("metadata").has("deletionTimestamp")) return namespace;
        ObjectNode object = namespace.object();
        ObjectNode status = object.with("status");
        status.put("phase", NamespaceLifecycle.PHASE_TERMINATING);
        ObjectNode metadata = object.with("metadata");
        metadata.put("deletionTimestamp", DateTimeFormatter.ISO_INSTANT.format(Instant.now(clock).truncatedTo(ChronoUnit.SECONDS)));
        metadata.put("deletionGracePeriodSeconds", 0);
        ArrayNode finalizers = object.with("spec").withArray("finalizers");
        boolean present = false;
        for (JsonNode finalizer : finalizers) present |= NamespaceLifecycle.KUBERNETES_FINALIZER.equals(finalizer.asText());
        if (!present) finalizers.add(NamespaceLifecycle.KUBERNETES_FINALIZER);
        if (!write) return StoredObject.of(namespace.key(), namespace.resourceVersion(), object);
        StoredObject withPhase = store.replaceStatus(namespace.key(), status, Long.toString(namespace.resourceVersion()));
        return store.replace(namespace.key(), object, Long.toString(withPhase.resourceVersion()));
    }
}
