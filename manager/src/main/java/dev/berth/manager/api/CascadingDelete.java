package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.DeleteOptions.Propagation;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A delete with kube-apiserver's garbage collection of ownerReferences, done at once on the state
 * thread instead of by a background collector. A dependent is an object whose
 * {@code metadata.ownerReferences} names the deleted object's uid (in the same namespace, or anywhere
 * for a cluster-scoped owner).
 * <ul>
 *   <li>Orphan: each dependent loses that ownerReference and stays; then the object is deleted.</li>
 *   <li>Background: the object is deleted, then each dependent that has no other live owner is
 *       deleted the same way (one that still has another owner only loses the reference).</li>
 *   <li>Foreground: the object is first written with {@code deletionTimestamp} and the finalizer
 *       {@code foregroundDeletion} (watchers see it), its dependents are deleted in foreground,
 *       then the object; the answer is the object as marked, as kube-apiserver answers it.</li>
 * </ul>
 * Every deletion runs the kind's {@code deleted} hook, so a collected Workload releases its quota.
 * Cost: one scan of the namespace (the whole store for a cluster-scoped owner) per request, then one
 * read per dependent. One instance serves one request.
 */
final class CascadingDelete {
    static final String FOREGROUND_FINALIZER = "foregroundDeletion";

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final Function<ResourceType, ObjectHooks> hooks;
    private final Clock clock;
    private Map<String, List<ObjectKey>> index;

    CascadingDelete(ObjectStore store, ResourceRegistry registry, Function<ResourceType, ObjectHooks> hooks, Clock clock) {
        this.store = store;
        this.registry = registry;
        this.hooks = hooks;
        this.clock = clock;
    }

    /**
     * Deletes {@code owner} (as currently stored) with the policy.
     *
     * @return what the API answers: the deleted object, or for Foreground the object as marked
     * @throws NotFoundException if the object is gone
     */
    StoredObject delete(ResourceType type, StoredObject owner, Propagation propagation) {
        return delete(type, owner, propagation, new HashSet<>());
    }

    private StoredObject delete(ResourceType type, StoredObject owner, Propagation propagation, Set<String> deleting) {
        String uid = uid(owner);
        deleting.add(uid);
        if (index == null) index = index(store, registry, type, owner);
        List<StoredObject> dependents = uid.isEmpty() ? List.of() : dependents(uid);
        switch (propagation) {
            case ORPHAN -> {
                for (StoredObject dependent : dependents) dropReference(dependent.key(), uid);
                return remove(type, owner);
            }
            case BACKGROUND -> {
                StoredObject deleted = remove(type, owner);
                for (StoredObject dependent : dependents) collect(dependent.key(), uid, Propagation.BACKGROUND, deleting);
                return deleted;
            }
            default -> {
                StoredObject marked = mark(owner);
                for (StoredObject dependent : dependents) collect(dependent.key(), uid, Propagation.FOREGROUND, deleting);
                remove(type, marked);
                return marked;
            }
        }
    }

    private void collect(ObjectKey key, String ownerUid, Propagation propagation, Set<String> deleting) {
        Optional<StoredObject> current = store.get(key);
        if (current.isEmpty() || deleting.contains(uid(current.get()))) return;
        ResourceType type = typeOf(key);
        if (type == null) return;
        if (hasOtherLiveOwner(current.get(), ownerUid, deleting)) {
            dropReference(key, ownerUid);
            return;
        }
        try {
            delete(type, current.get(), propagation, deleting);
        } catch (NotFoundException alreadyGone) {
            // collected through another path meanwhile
        }
    }

    private boolean hasOtherLiveOwner(StoredObject dependent, String ownerUid, Set<String> deleting) {
        for (JsonNode reference : references(dependent.object())) {
            String uid = reference.path("uid").asText("");
            if (uid.equals(ownerUid) || deleting.contains(uid)) continue;
            Optional<ResourceType> type = registry.byApiVersionAndKind(reference.path("apiVersion").asText(""),
                    reference.path("kind").asText(""));
            if (type.isEmpty()) continue;
            String namespace = type.get().namespaced() ? dependent.key().namespace() : "";
            Optional<StoredObject> owner = store.get(new ObjectKey(type.get().resource(), namespace, reference.path("name").asText("")));
            if (owner.isPresent() && uid(owner.get()).equals(uid)) return true;
        }
        return false;
    }

    /** The current objects whose ownerReferences name uid, from the index of the cascade's one scan. */
    private List<StoredObject> dependents(String uid) {
        List<StoredObject> dependents = new ArrayList<>();
        for (ObjectKey key : index.getOrDefault(uid, List.of())) store.get(key).ifPresent(dependents::add);
        return dependents;
    }

    /**
     * One pass over the objects that can depend on the owner (its namespace, or every object for a
     * cluster-scoped owner), indexed by the owner uids they name: a cascade of any depth then costs
     * one scan, not one per collected object. A namespaced dependent's own dependents share its
     * namespace, so the pass covers the whole cascade.
     */
    private static Map<String, List<ObjectKey>> index(ObjectStore store, ResourceRegistry registry, ResourceType ownerType, StoredObject owner) {
        Map<String, List<ObjectKey>> index = new HashMap<>();
        String namespace = ownerType.namespaced() ? owner.key().namespace() : null;
        for (ResourceType type : registry.types()) {
            if (namespace != null && !type.namespaced()) continue;
            for (StoredObject candidate : store.list(type.resource(), namespace)) {
                for (JsonNode reference : references(candidate.object())) {
                    String uid = reference.path("uid").asText("");
                    if (!uid.isEmpty()) index.computeIfAbsent(uid, u -> new ArrayList<>()).add(candidate.key());
                }
            }
        }
        return index;
    }

    private void dropReference(ObjectKey key, String ownerUid) {
        Optional<StoredObject> current = store.get(key);
        if (current.isEmpty()) return;
        ObjectNode object = current.get().object();
        ObjectNode metadata = (ObjectNode) object.get("metadata");
        ArrayNode kept = metadata.arrayNode();
        for (JsonNode reference : references(object)) if (!ownerUid.equals(reference.path("uid").asText())) kept.add(reference);
        if (kept.isEmpty()) metadata.remove("ownerReferences");
        else metadata.set("ownerReferences", kept);
        try {
            store.replace(key, object, Long.toString(current.get().resourceVersion()));
        } catch (NotFoundException gone) {
            // deleted meanwhile: nothing left to orphan
        }
    }

    private StoredObject mark(StoredObject owner) {
        ObjectNode object = owner.object();
        ObjectNode metadata = object.with("metadata");
        if (!metadata.has("deletionTimestamp")) {
            metadata.put("deletionTimestamp", DateTimeFormatter.ISO_INSTANT.format(Instant.now(clock).truncatedTo(ChronoUnit.SECONDS)));
            metadata.put("deletionGracePeriodSeconds", 0);
        }
        ArrayNode finalizers = metadata.withArray("finalizers");
        boolean present = false;
        for (JsonNode finalizer : finalizers) present |= FOREGROUND_FINALIZER.equals(finalizer.asText());
        if (!present) finalizers.add(FOREGROUND_FINALIZER);
        return store.replace(owner.key(), object, Long.toString(owner.resourceVersion()));
    }

    private StoredObject remove(ResourceType type, StoredObject object) {
        StoredObject deleted = store.delete(object.key());
        hooks.apply(type).deleted(deleted);
        return deleted;
    }

    private ResourceType typeOf(ObjectKey key) {
        for (ResourceType type : registry.types()) if (type.resource().equals(key.resource())) return type;
        return null;
    }

    private static Iterable<JsonNode> references(JsonNode object) {
        JsonNode references = object.path("metadata").path("ownerReferences");
        return references.isArray() ? references : List.of();
    }

    private static String uid(StoredObject object) {
        return object.object().path("metadata").path("uid").asText("");
    }
}
