package dev.berth.manager.core;

import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.QuotaTree;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The workloads holding quota, per ClusterQueue and per cohort tree, kept in the preemption planner's
 * victim order (lower priority first, then the most recently reserved, then by key). A preemption
 * plan walks these sets instead of collecting and sorting a tree's holders every cycle.
 *
 * <p>A holder's place is fixed while it holds quota: its priority, reservation time and key do not
 * change until it releases (the controller refuses request changes of a workload holding quota). The
 * per-tree sets follow the quota tree's shape, so they are dropped when the tree is rebuilt and built
 * again, from the per-queue sets, when first asked for.
 */
final class HolderIndex {
    static final Comparator<WorkloadEntry> VICTIM_ORDER = (a, b) -> {
        if (a == b) return 0;
        if (a.awaitingStop() != b.awaitingStop()) return a.awaitingStop() ? -1 : 1;
        int aPriority = a.request.priority();
        int bPriority = b.request.priority();
        if (aPriority != bPriority) return Integer.compare(aPriority, bPriority);
        if (a.reservedAtMillis != b.reservedAtMillis) return Long.compare(b.reservedAtMillis, a.reservedAtMillis);
        return a.key().compareTo(b.key());
    };

    private final Map<String, TreeSet<WorkloadEntry>> byQueue = new HashMap<>();
    private final Map<String, TreeSet<WorkloadEntry>> byRoot = new HashMap<>();

    /** The entry now holds quota in {@code clusterQueue}; its reservation time and usage are set. */
    void reserved(WorkloadEntry entry, String clusterQueue, QuotaTree quota) {
        entry.holderView = new AdmittedWorkload(entry.key(), clusterQueue, entry.request.priority(),
                entry.request.creationMillis(), entry.reservedAtMillis, entry.usage, entry.awaitingStop());
        byQueue.computeIfAbsent(clusterQueue, q -> new TreeSet<>(VICTIM_ORDER)).add(entry);
        TreeSet<WorkloadEntry> tree = treeSetOf(clusterQueue, quota);
        if (tree != null) tree.add(entry);
    }

    /** The entry no longer holds quota in {@code clusterQueue}. */
    void released(WorkloadEntry entry, String clusterQueue, QuotaTree quota) {
        TreeSet<WorkloadEntry> inQueue = byQueue.get(clusterQueue);
        if (inQueue != null) {
            inQueue.remove(entry);
            if (inQueue.isEmpty()) byQueue.remove(clusterQueue);
        }
        TreeSet<WorkloadEntry> tree = treeSetOf(clusterQueue, quota);
        if (tree != null) tree.remove(entry);
        entry.holderView = null;
    }

    /** The quota tree was rebuilt: which queues share a tree may have changed. */
    void treesChanged() {
        byRoot.clear();
    }

    /** The holders of one ClusterQueue in victim order; a live, read-only view. */
    NavigableSet<WorkloadEntry> inQueue(String clusterQueue) {
        TreeSet<WorkloadEntry> holders = byQueue.get(clusterQueue);
        return holders == null ? Collections.emptyNavigableSet() : Collections.unmodifiableNavigableSet(holders);
    }

    /**
     * The holders of every ClusterQueue in the queue's cohort tree (only the queue's own when it has
     * no cohort), in victim order; a live, read-only view.
     */
    NavigableSet<WorkloadEntry> inTree(String clusterQueue, QuotaTree quota) {
        if (!quota.hasCohort(clusterQueue)) return inQueue(clusterQueue);
        TreeSet<WorkloadEntry> tree = byRoot.get(quota.rootOf(clusterQueue));
        if (tree == null) {
            tree = new TreeSet<>(VICTIM_ORDER);
            for (String member : quota.clusterQueuesInTree(clusterQueue)) {
                TreeSet<WorkloadEntry> holders = byQueue.get(member);
                if (holders != null) tree.addAll(holders);
            }
            byRoot.put(quota.rootOf(clusterQueue), tree);
        }
        return Collections.unmodifiableNavigableSet(tree);
    }

    private TreeSet<WorkloadEntry> treeSetOf(String clusterQueue, QuotaTree quota) {
        if (!quota.hasClusterQueue(clusterQueue) || !quota.hasCohort(clusterQueue)) return null;
        return byRoot.get(quota.rootOf(clusterQueue));
    }
}
