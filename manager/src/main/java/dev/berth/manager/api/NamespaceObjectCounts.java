package dev.berth.manager.api;

import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreChange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Per-namespace object counts, kept from the store's change feed, and the gate that refuses a create
 * beyond {@link ObjectCountLimits} with kube-apiserver's ResourceQuota wording (403 "exceeded quota").
 * A (resource, namespace) pair is counted from the store once, the first time it is asked about, and
 * then only adjusted on each added or deleted object, so a create costs a map lookup, not a list.
 */
public final class NamespaceObjectCounts implements Consumer<StoreChange>, CreationGate {
    /** The name the refusals give the implicit quota, where kube-apiserver names the ResourceQuota object. */
    public static final String QUOTA_NAME = "berth-object-counts";

    private final ObjectStore store;
    private final Map<ObjectKey, Integer> counts = new HashMap<>();
    private volatile ObjectCountLimits limits;

    public NamespaceObjectCounts(ObjectStore store, ObjectCountLimits limits) {
        this.store = store;
        this.limits = limits;
    }

    /** Replaces the limits (the launch flag); counts are kept. */
    public void limits(ObjectCountLimits newLimits) {
        this.limits = newLimits;
    }

    @Override
    public synchronized void accept(StoreChange change) {
        if (change.type() == StoreChange.Type.MODIFIED) return;
        ObjectKey key = change.object().key();
        if (key.namespace() == null || key.namespace().isEmpty()) return;
        ObjectKey bucket = bucket(key.resource(), key.namespace());
        Integer count = counts.get(bucket);
        if (count == null) return;
        counts.put(bucket, Math.max(0, count + (change.type() == StoreChange.Type.ADDED ? 1 : -1)));
    }

    @Override
    public void beforeCreate(ResourceType type, String namespace, String name) {
        if (!type.namespaced() || namespace == null || namespace.isEmpty()) return;
        int limit = limits.limitFor(type);
        if (limit == Integer.MAX_VALUE) return;
        int used = count(type.resource(), namespace);
        if (used < limit) return;
        String counted = "count/" + type.qualifiedName();
        throw new ApiException(403, "Forbidden", type.qualifiedName() + " \"" + name + "\" is forbidden: exceeded quota: " + QUOTA_NAME
                + ", requested: " + counted + "=1, used: " + counted + "=" + used + ", limited: " + counted + "=" + limit,
                name, type.group(), type.plural(), List.of());
    }

    /** How many objects of the resource the namespace holds now. */
    public synchronized int count(String resource, String namespace) {
        return counts.computeIfAbsent(bucket(resource, namespace), b -> store.list(resource, namespace).size());
    }

    private static ObjectKey bucket(String resource, String namespace) {
        return new ObjectKey(resource, namespace, "");
    }
}
