package dev.berth.manager.core;

import dev.berth.manager.model.PodSetRequest;
import java.util.Objects;

/**
 * What a known-misfit check reads of a pending workload: its priority and its single pod set without the
 * name. Equal shapes answer every misfit check alike. The hash is computed once, since a pending queue
 * looks the shape up on every move.
 */
final class PendingShape {
    /** The shape of workloads with several pod sets or partial admission: no misfit matches them. */
    static final PendingShape UNMATCHABLE = new PendingShape(0, null);

    private final int priority;
    private final PodSetRequest podSet;
    private final int hash;

    private PendingShape(int priority, PodSetRequest podSet) {
        this.priority = priority;
        this.podSet = podSet;
        this.hash = podSet == null ? 0 : Objects.hash(priority, podSet.count(), podSet.perPodRequests(), podSet.nodeSelector(),
                podSet.requiredNodeAffinity(), podSet.tolerations());
    }

    /** The entry's shape, cached on the entry for its current request. */
    static PendingShape of(WorkloadEntry entry) {
        if (entry.pendingShapeOf != entry.request) {
            entry.pendingShape = simple(entry) ? new PendingShape(entry.request.priority(), entry.request.podSets().get(0)) : UNMATCHABLE;
            entry.pendingShapeOf = entry.request;
        }
        return entry.pendingShape;
    }

    /** One pod set, all of it needed: the only kind a known misfit is compared with. */
    static boolean simple(WorkloadEntry entry) {
        return entry.request.podSets().size() == 1 && entry.request.podSets().get(0).minCount() == null;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) return true;
        if (!(other instanceof PendingShape that) || podSet == null || that.podSet == null) return false;
        return hash == that.hash && priority == that.priority && podSet.count() == that.podSet.count()
                && podSet.perPodRequests().equals(that.podSet.perPodRequests())
                && podSet.nodeSelector().equals(that.podSet.nodeSelector())
                && podSet.requiredNodeAffinity().equals(that.podSet.requiredNodeAffinity())
                && podSet.tolerations().equals(that.podSet.tolerations());
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
