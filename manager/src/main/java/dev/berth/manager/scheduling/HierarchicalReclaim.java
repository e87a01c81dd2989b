package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.FlavorResource;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Kueue's hierarchical advantage (classical/hierarchical_preemption.go): a ClusterQueue is nearer to
 * quota that its own subtree provides than a queue elsewhere in the tree that borrows it. Walking up
 * from the preempting queue, the request is checked against each node's subtree quota (what each
 * lower node can still give from its guaranteed quota is taken off on the way); below the lowest node
 * where it fits, the preemptor competes with borrowers by priority, above it the quota is its own.
 *
 * <p>A candidate is only worth preempting while it and each cohort between it and the nearest common
 * ancestor use more than their subtree's quota: once a subtree is back within its quota, the quota
 * it uses is its own, which is what keeps a reclaim from being taken back in the next cycle.
 */
final class HierarchicalReclaim {
    private final QuotaNode queue;
    /** How many steps above the queue the request first fits a subtree's quota (0: the queue itself); -1 when nowhere. */
    private final int fitDepth;

    HierarchicalReclaim(QuotaTree quota, String clusterQueue, Map<FlavorResource, Long> request) {
        this.queue = quota.nodeOf(clusterQueue);
        this.fitDepth = fitDepth(queue, request);
    }

    /** True when some node on the queue's path to the root has room for the request in its subtree quota. */
    boolean hasAdvantageSomewhere() {
        return queue.parent != null && fitDepth >= 0;
    }

    /** True when the preemptor has the hierarchical advantage over workloads of this ClusterQueue. */
    boolean hasAdvantageOver(QuotaNode other) {
        if (!hasAdvantageSomewhere()) return false;
        QuotaNode common = commonAncestor(other);
        return common != null && depth(common) > fitDepth;
    }

    QuotaNode commonAncestor(QuotaNode other) {
        for (QuotaNode mine = queue.parent; mine != null; mine = mine.parent) {
            for (QuotaNode theirs = other.parent; theirs != null; theirs = theirs.parent) {
                if (theirs == mine) return mine;
            }
        }
        return null;
    }

    private int depth(QuotaNode ancestor) {
        int depth = 0;
        for (QuotaNode node = queue; node != ancestor; node = node.parent) depth++;
        return depth;
    }

    /**
     * Kueue's candidateIsValid for other queues: the candidate's queue, and every cohort between it and
     * {@code common}, use more than their subtree quota of one of {@code frs}.
     */
    static boolean overQuotaBelow(QuotaNode candidateQueue, QuotaNode common, Collection<FlavorResource> frs) {
        for (QuotaNode node = candidateQueue; node != null && node != common; node = node.parent) {
            if (!overQuota(node, frs)) return false;
        }
        return true;
    }

    private static boolean overQuota(QuotaNode node, Collection<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (node.usage(fr) > node.subtreeQuota(fr)) return true;
        }
        return false;
    }

    private static int fitDepth(QuotaNode queue, Map<FlavorResource, Long> request) {
        Map<FlavorResource, Long> remaining = new HashMap<>(request);
        int depth = 0;
        for (QuotaNode node = queue; node != null; node = node.parent, depth++) {
            boolean fits = true;
            for (Map.Entry<FlavorResource, Long> entry : remaining.entrySet()) {
                FlavorResource fr = entry.getKey();
                if (Amounts.add(node.usage(fr), entry.getValue()) > node.subtreeQuota(fr)) fits = false;
                long localAvailable = Math.max(0, Amounts.subtract(node.guaranteedQuota(fr), node.usage(fr)));
                entry.setValue(Math.max(0, Amounts.subtract(entry.getValue(), localAvailable)));
            }
            if (fits) return depth;
        }
        return -1;
    }
}
