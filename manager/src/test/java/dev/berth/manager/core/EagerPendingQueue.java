package dev.berth.manager.core;

import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.QueueingStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Test reference: PendingQueue as it was before it grouped workloads by shape (it scanned workload by
 * workload, moved parked ones to a second set and all back on a new generation). PendingQueueTest checks that both offer
 * the same heads. The pending workloads of one ClusterQueue, in queue order. Workloads found inadmissible are
 * parked until the capacity of the queue's cohort tree grows (its generation moves on), as Kueue
 * keeps them in its inadmissible list until a requeue event.
 *
 * <p>Within one generation, a workload at most as large as one already found not to fit (same
 * single pod set shape, no partial admission, no higher priority) is parked without being
 * evaluated again: nothing it could use has been freed since.
 */
final class EagerPendingQueue {
    private final TreeSet<WorkloadEntry> active = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
    private final TreeSet<WorkloadEntry> parked = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
    private final List<WorkloadEntry> knownMisfits = new ArrayList<>();
    private long seenGeneration = -1;
    private long strictBlockedGeneration = -1;
    /** A workload that issued preemptions: it is the next head, so the quota its victims freed goes to it. */
    private WorkloadEntry preemptor;

    void add(WorkloadEntry entry) {
        active.add(entry);
    }

    boolean remove(WorkloadEntry entry) {
        if (entry == preemptor) preemptor = null;
        return active.remove(entry) | parked.remove(entry);
    }

    int size() {
        return active.size() + parked.size();
    }

    /** Workloads found inadmissible and waiting for capacity to grow (Kueue's inadmissible list). */
    int parkedCount() {
        return parked.size();
    }

    boolean isEmpty() {
        return active.isEmpty() && parked.isEmpty();
    }

    /** Every pending workload, in queue order. */
    List<WorkloadEntry> inOrder() {
        TreeSet<WorkloadEntry> all = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
        all.addAll(active);
        all.addAll(parked);
        return new ArrayList<>(all);
    }

    /** Moves parked workloads back when capacity changed since they were parked. */
    void refresh(long generation) {
        if (generation == seenGeneration) return;
        seenGeneration = generation;
        knownMisfits.clear();
        if (!parked.isEmpty()) {
            active.addAll(parked);
            parked.clear();
        }
    }

    /**
     * Takes the workload to nominate this cycle, or null. StrictFIFO always offers the first
     * workload and, once it has failed, nothing until capacity changes. BestEffortFIFO skips parked
     * workloads and those known not to fit.
     */
    WorkloadEntry pollHead(QueueingStrategy strategy, long generation) {
        refresh(generation);
        if (preemptor != null) {
            WorkloadEntry next = preemptor;
            preemptor = null;
            if (active.remove(next)) return next;
        }
        if (strategy == QueueingStrategy.STRICT_FIFO) {
            if (strictBlockedGeneration == generation || active.isEmpty()) return null;
            return active.pollFirst();
        }
        while (!active.isEmpty()) {
            WorkloadEntry head = active.pollFirst();
            if (isKnownMisfit(head)) {
                parked.add(head);
                continue;
            }
            return head;
        }
        return null;
    }

    /** The head was admitted, or needs another look next cycle (for example after preempting). */
    void putBack(WorkloadEntry entry) {
        active.add(entry);
    }

    /** The head issued preemptions: it goes back and is offered first next cycle (Kueue's PrioritizePreemptorWorkloads). */
    void putBackAsPreemptor(WorkloadEntry entry) {
        active.add(entry);
        preemptor = entry;
    }

    /** The head does not fit now. */
    void park(WorkloadEntry entry, QueueingStrategy strategy, long generation, boolean quotaOnlyMisfit) {
        if (strategy == QueueingStrategy.STRICT_FIFO) {
            strictBlockedGeneration = generation;
            active.add(entry);
            return;
        }
        parked.add(entry);
        if (quotaOnlyMisfit && isSimpleShape(entry)) rememberMisfit(entry);
    }

    /**
     * Adds a misfit to the known ones, dropping those it dominates: a known misfit of the same shape,
     * priority at most the new one's and requests at least the new one's matches only candidates the
     * new one matches too, so {@link #isKnownMisfit} answers the same with a shorter list. A misfit
     * dominated by one already known is not added, for the same reason.
     */
    private void rememberMisfit(WorkloadEntry entry) {
        if (isKnownMisfit(entry)) return;
        PodSetRequest added = entry.request.podSets().get(0);
        int priority = entry.request.priority();
        knownMisfits.removeIf(misfit -> misfit.request.priority() <= priority
                && atLeast(misfit.request.podSets().get(0), added)
                && sameShape(misfit.request.podSets().get(0), added));
        knownMisfits.add(entry);
    }

    /** Cheap comparisons first (priority, counts, requests), the shape last. */
    private boolean isKnownMisfit(WorkloadEntry candidate) {
        if (knownMisfits.isEmpty() || !isSimpleShape(candidate)) return false;
        PodSetRequest wanted = candidate.request.podSets().get(0);
        int priority = candidate.request.priority();
        for (int i = 0; i < knownMisfits.size(); i++) {
            WorkloadEntry misfit = knownMisfits.get(i);
            PodSetRequest failed = misfit.request.podSets().get(0);
            if (priority <= misfit.request.priority() && atLeast(wanted, failed) && sameShape(wanted, failed)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSimpleShape(WorkloadEntry entry) {
        return entry.request.podSets().size() == 1 && entry.request.podSets().get(0).minCount() == null;
    }

    private static boolean sameShape(PodSetRequest a, PodSetRequest b) {
        return a.perPodRequests().keySet().equals(b.perPodRequests().keySet())
                && a.nodeSelector().equals(b.nodeSelector())
                && a.requiredNodeAffinity().equals(b.requiredNodeAffinity())
                && a.tolerations().equals(b.tolerations());
    }

    /** At least as many pods, each requesting at least as much of every resource {@code failed} requests; false where {@code wanted} lacks one. */
    private static boolean atLeast(PodSetRequest wanted, PodSetRequest failed) {
        if (wanted.count() < failed.count()) return false;
        Map<String, Long> wantedRequests = wanted.perPodRequests();
        for (Map.Entry<String, Long> request : failed.perPodRequests().entrySet()) {
            Long amount = wantedRequests.get(request.getKey());
            if (amount == null || amount < request.getValue()) return false;
        }
        return true;
    }
}
