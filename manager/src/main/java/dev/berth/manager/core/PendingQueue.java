package dev.berth.manager.core;

import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.QueueingStrategy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The pending workloads of one ClusterQueue, in queue order. Workloads found inadmissible are
 * parked until the capacity of the queue's cohort tree grows (its generation moves on), as Kueue
 * keeps them in its inadmissible list until a requeue event.
 *
 * <p>Within one generation, a workload at most as large as one already found not to fit (same
 * single pod set shape, no partial admission, no higher priority) is parked without being
 * evaluated again: nothing it could use has been freed since.
 *
 * <p>Workloads are kept in {@link PendingGroup}s of one {@link PendingShape}, which a known misfit
 * matches all or none of. The head is the first member of the first group not known to misfit, so a
 * known misfit skips its whole group at once, and a new generation un-parks groups, not workloads: a
 * pass costs its decisions and the number of shapes, not the number of workloads waiting.
 */
final class PendingQueue {
    private final Map<PendingGroup.Key, PendingGroup> groups = new HashMap<>();
    /** The groups not known to misfit, ordered by their first member. */
    private final TreeSet<PendingGroup> eligible = new TreeSet<>(PendingGroup.BY_FIRST_MEMBER);
    /** The groups a known misfit matches in this generation, skipped until it moves on. */
    private final List<PendingGroup> misfitGroups = new ArrayList<>();
    /** Workloads nominated and found not to fit in this generation; they rejoin their groups when it moves on. */
    private final Set<WorkloadEntry> parked = new LinkedHashSet<>();
    /** The shapes of this generation's known misfits, none dominating another. */
    private final List<PendingShape> knownMisfits = new ArrayList<>();
    /** Equal placements of this queue's groups, shared so that misfit checks compare them by identity. */
    private final Map<PendingShape.Placement, PendingShape.Placement> placements = new HashMap<>();
    private int size;
    private int inMisfitGroups;
    private long seenGeneration = -1;
    private long strictBlockedGeneration = -1;
    /** What a blocked StrictFIFO head that needs preemption without candidates keeps reserved (Kueue rule, see SchedulingCycle). */
    private Map<FlavorResource, Long> blockedHeadReservation = Map.of();
    /** A workload that issued preemptions: it is the next head, so the quota its victims freed goes to it. */
    private WorkloadEntry preemptor;

    void add(WorkloadEntry entry) {
        join(entry);
        size++;
    }

    boolean remove(WorkloadEntry entry) {
        if (entry == preemptor) preemptor = null;
        boolean removed = parked.remove(entry) || leave(entry);
        if (removed) size--;
        return removed;
    }

    int size() {
        return size;
    }

    /** Workloads found inadmissible and waiting for capacity to grow (Kueue's inadmissible list). */
    int parkedCount() {
        return parked.size() + inMisfitGroups;
    }

    /** The workloads {@link #parkedCount()} counts, for per-LocalQueue counts. */
    List<WorkloadEntry> parkedEntries() {
        List<WorkloadEntry> all = new ArrayList<>(parked);
        for (PendingGroup group : misfitGroups) group.members().forEach(all::add);
        return all;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Every pending workload, in queue order. */
    List<WorkloadEntry> inOrder() {
        TreeSet<WorkloadEntry> all = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
        for (PendingGroup group : groups.values()) group.members().forEach(all::add);
        all.addAll(parked);
        return new ArrayList<>(all);
    }

    /** Un-parks every parked workload when capacity changed since they were parked. */
    void refresh(long generation) {
        if (generation == seenGeneration) return;
        seenGeneration = generation;
        knownMisfits.clear();
        for (PendingGroup group : misfitGroups) {
            group.knownMisfit = false;
            if (group.isEmpty()) groups.remove(group.key());
            else eligible.add(group);
        }
        misfitGroups.clear();
        inMisfitGroups = 0;
        if (!parked.isEmpty()) {
            for (WorkloadEntry entry : parked) join(entry);
            parked.clear();
        }
    }

    /**
     * Takes the workload to nominate this cycle, or null. StrictFIFO always offers the first
     * workload and, once it has failed, nothing until capacity changes. BestEffortFIFO skips parked
     * workloads and those known not to fit.
     */
    WorkloadEntry pollHead(QueueingStrategy strategy, long generation) {
        return pollHead(strategy, generation, null);
    }

    /**
     * As {@link #pollHead(QueueingStrategy, long)}; with admission fair sharing ({@code localQueueUsage}
     * not null) the head comes from the LocalQueue with the lowest usage, then in the usual order
     * (Kueue's queueOrderingFunc with AdmissionFairSharing).
     */
    WorkloadEntry pollHead(QueueingStrategy strategy, long generation, ToDoubleFunction<String> localQueueUsage) {
        refresh(generation);
        if (preemptor != null) {
            WorkloadEntry next = preemptor;
            preemptor = null;
            if (leave(next)) {
                size--;
                return next;
            }
        }
        boolean strict = strategy == QueueingStrategy.STRICT_FIFO;
        if (strict && strictBlockedGeneration == generation) return null;
        while (!eligible.isEmpty()) {
            PendingGroup first = localQueueUsage == null ? eligible.pollFirst() : pollLeastUsed(localQueueUsage);
            if (!strict && first.matchable() && isKnownMisfit(first.shape)) {
                first.knownMisfit = true;
                misfitGroups.add(first);
                inMisfitGroups += first.size();
                continue;
            }
            WorkloadEntry head = first.pollFirst();
            if (first.isEmpty()) groups.remove(first.key());
            else eligible.add(first);
            size--;
            return head;
        }
        return null;
    }

    /** The eligible group whose LocalQueue has the lowest usage; among equals the first in queue order. */
    private PendingGroup pollLeastUsed(ToDoubleFunction<String> localQueueUsage) {
        Map<String, Double> usage = new HashMap<>();
        PendingGroup best = null;
        double bestUsage = 0;
        for (PendingGroup group : eligible) {
            double groupUsage = usage.computeIfAbsent(group.localQueueKey, localQueueUsage::applyAsDouble);
            if (best == null || groupUsage < bestUsage) {
                best = group;
                bestUsage = groupUsage;
            }
        }
        eligible.remove(best);
        return best;
    }

    /** Every pending workload in the order of admission fair sharing: LocalQueue usage, then queue order. */
    List<WorkloadEntry> inOrder(ToDoubleFunction<String> localQueueUsage) {
        List<WorkloadEntry> all = inOrder();
        if (localQueueUsage == null) return all;
        Map<String, Double> usage = new HashMap<>();
        all.sort(Comparator.comparingDouble((WorkloadEntry entry) ->
                usage.computeIfAbsent(entry.localQueueKey, localQueueUsage::applyAsDouble)).thenComparing(WorkloadEntry.QUEUE_ORDER));
        return all;
    }

    /** The head was admitted, or needs another look next cycle (for example after preempting). */
    void putBack(WorkloadEntry entry) {
        add(entry);
    }

    /** The head issued preemptions: it goes back and is offered first next cycle (Kueue's PrioritizePreemptorWorkloads). */
    void putBackAsPreemptor(WorkloadEntry entry) {
        add(entry);
        preemptor = entry;
    }

    /** The head does not fit now. */
    void park(WorkloadEntry entry, QueueingStrategy strategy, long generation, boolean quotaOnlyMisfit) {
        size++;
        if (strategy == QueueingStrategy.STRICT_FIFO) {
            strictBlockedGeneration = generation;
            blockedHeadReservation = Map.of();
            join(entry);
            return;
        }
        parked.add(entry);
        if (quotaOnlyMisfit && PendingShape.simple(entry)) rememberMisfit(entry);
    }

    /**
     * The head can never be admitted by this queue as things are (its namespace does not match the
     * queue's namespaceSelector): it waits aside until the queue's generation moves on, under
     * StrictFIFO too, so it does not hold the head (Kueue requeues it non-immediately).
     */
    void parkAside(WorkloadEntry entry) {
        size++;
        parked.add(entry);
    }

    /** The blocked StrictFIFO head reserves this quota in every cycle for as long as it stays blocked. */
    void reserveForBlockedHead(Map<FlavorResource, Long> reservation) {
        blockedHeadReservation = Map.copyOf(reservation);
    }

    /** The quota the blocked StrictFIFO head reserves in this generation; empty once it is looked at again. */
    Map<FlavorResource, Long> blockedHeadReservation(QueueingStrategy strategy, long generation) {
        if (strategy != QueueingStrategy.STRICT_FIFO || strictBlockedGeneration != generation) return Map.of();
        return blockedHeadReservation;
    }

    /** Puts the entry into its shape's group, keeping the eligible groups ordered by their first member. */
    private void join(WorkloadEntry entry) {
        PendingShape shape = PendingShape.of(entry);
        PendingGroup group = groups.get(new PendingGroup.Key(entry.localQueueKey, shape));
        if (group == null) {
            group = new PendingGroup(shape.forGroup(placements), entry.localQueueKey);
            groups.put(group.key(), group);
        }
        entry.pendingShape = group.shape;
        if (group.knownMisfit) {
            group.add(entry);
            inMisfitGroups++;
        } else if (group.isEmpty()) {
            group.add(entry);
            eligible.add(group);
        } else if (WorkloadEntry.compareInQueueOrder(entry, group.first()) < 0) {
            eligible.remove(group);
            group.add(entry);
            eligible.add(group);
        } else {
            group.add(entry);
        }
    }

    /** Takes the entry out of its group; false when it is in none (a head taken out, or parked). */
    private boolean leave(WorkloadEntry entry) {
        PendingGroup group = groups.get(PendingGroup.Key.of(entry));
        if (group == null || group.isEmpty()) return false;
        if (group.knownMisfit) {
            if (!group.remove(entry)) return false;
            inMisfitGroups--;
            return true;
        }
        if (group.first() != entry) return group.remove(entry);
        eligible.remove(group);
        group.remove(entry);
        if (group.isEmpty()) groups.remove(group.key());
        else eligible.add(group);
        return true;
    }

    /**
     * Adds a misfit to the known ones, dropping those it dominates: a known misfit of the same shape,
     * priority at most the new one's and requests at least the new one's matches only candidates the
     * new one matches too, so {@link #isKnownMisfit} answers the same with a shorter list. A misfit
     * dominated by one already known is not added, for the same reason.
     */
    private void rememberMisfit(WorkloadEntry entry) {
        PendingShape added = entry.pendingShape;
        if (isKnownMisfit(added)) return;
        knownMisfits.removeIf(misfit -> misfit.dominatedBy(added));
        knownMisfits.add(added);
    }

    private boolean isKnownMisfit(PendingShape candidate) {
        for (int i = 0; i < knownMisfits.size(); i++) {
            if (candidate.dominatedBy(knownMisfits.get(i))) return true;
        }
        return false;
    }
}
