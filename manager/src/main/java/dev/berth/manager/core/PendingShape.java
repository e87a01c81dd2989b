package dev.berth.manager.core;

import dev.berth.manager.model.PodSetRequest;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a known-misfit check reads of a pending workload: its priority and its single pod set without the
 * name. Equal shapes answer every misfit check alike. The hash is computed once, since a pending queue
 * looks the shape up on every move; the placement part (which resources, node selector, affinity,
 * tolerations) is shared by equal placements within a queue, so a misfit check compares it by identity.
 */
final class PendingShape {
    /** The shape of workloads with several pod sets or partial admission: no misfit matches them. */
    static final PendingShape UNMATCHABLE = new PendingShape(0, null);

    final int priority;
    final PodSetRequest podSet;
    /** Equal placements of one queue's groups are the same object (see {@link #forGroup}); null for an entry's own key. */
    final Placement placement;
    private final int hash;

    /** Where a pod set may run and which resources it names; misfits compare only within one placement. */
    record Placement(Set<String> resources, Map<String, String> nodeSelector, List<?> requiredNodeAffinity, List<?> tolerations) {
        static Placement of(PodSetRequest podSet) {
            return new Placement(podSet.perPodRequests().keySet(), podSet.nodeSelector(), podSet.requiredNodeAffinity(),
                    podSet.tolerations());
        }
    }

    private PendingShape(int priority, PodSetRequest podSet) {
        this(priority, podSet, null);
    }

    private PendingShape(int priority, PodSetRequest podSet, Placement placement) {
        this.priority = priority;
        this.podSet = podSet;
        this.placement = placement;
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

    /** An equal shape for a queue's new group, with the placement the queue shares among its groups. */
    PendingShape forGroup(Map<Placement, Placement> placementsOfQueue) {
        if (podSet == null) return this;
        return new PendingShape(priority, podSet, placementsOfQueue.computeIfAbsent(Placement.of(podSet), p -> p));
    }

    /** One pod set, all of it needed, no flavor avoided: the only kind a known misfit is compared with. */
    static boolean simple(WorkloadEntry entry) {
        return entry.request.podSets().size() == 1 && entry.request.podSets().get(0).minCount() == null && entry.avoidedFlavors.isEmpty();
    }

    /**
     * True when a workload of this shape is known not to fit because one of {@code misfit}'s did not:
     * same placement, no higher priority, at least as many pods, each requesting at least as much of
     * every resource the misfit requested.
     */
    boolean dominatedBy(PendingShape misfit) {
        if (priority > misfit.priority || podSet.count() < misfit.podSet.count()) return false;
        if (placement != misfit.placement && !Objects.equals(placement, misfit.placement)) return false;
        Map<String, Long> wanted = podSet.perPodRequests();
        for (Map.Entry<String, Long> request : misfit.podSet.perPodRequests().entrySet()) {
            Long amount = wanted.get(request.getKey());
            if (amount == null || amount < request.getValue()) return false;
        }
        return true;
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
