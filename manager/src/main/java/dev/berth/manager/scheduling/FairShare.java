package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.FlavorResource;
import java.util.HashMap;
import java.util.Map;

/** Kueue's dominant resource share (DRS), the measure fair sharing orders and preempts by. */
final class FairShare {
    private FairShare() {}

    static int dominantResourceShare(QuotaNode node, Map<FlavorResource, Long> extra) {
        if (node.parent == null) return 0;
        Map<String, Long> borrowed = new HashMap<>();
        for (Map.Entry<FlavorResource, Long> quota : node.subtreeQuota.entrySet()) {
            FlavorResource fr = quota.getKey();
            long amount = Amounts.subtract(Amounts.add(extra.getOrDefault(fr, 0L), node.usage(fr)), quota.getValue());
            if (amount > 0) borrowed.merge(fr.resource(), amount, Amounts::add);
        }
        for (Map.Entry<FlavorResource, Long> added : extra.entrySet()) {
            if (!node.subtreeQuota.containsKey(added.getKey()) && added.getValue() > 0) {
                borrowed.merge(added.getKey().resource(), Amounts.add(added.getValue(), node.usage(added.getKey())), Amounts::add);
            }
        }
        if (borrowed.isEmpty()) return 0;
        if (node.fairWeight <= 0) return Integer.MAX_VALUE;
        Map<String, Long> lendable = new HashMap<>();
        for (Map.Entry<FlavorResource, Long> quota : node.parent.subtreeQuota.entrySet()) {
            lendable.merge(quota.getKey().resource(), quota.getValue(), Amounts::add);
        }
        long share = 0;
        for (Map.Entry<String, Long> entry : borrowed.entrySet()) {
            long pool = lendable.getOrDefault(entry.getKey(), 0L);
            if (pool > 0) share = Math.max(share, perMille(entry.getValue(), pool));
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.round(share / node.fairWeight));
    }

    /**
     * Kueue's PreciseWeightedShare (pkg/cache/scheduler/fair_sharing.go), without a workload added:
     * the largest ratio, over resources, of what the node uses above its subtree quota to what its
     * parent could lend it (potentialAvailable summed over every flavor of the tree), times 1000,
     * divided by the weight. 0 at a root or when nothing is borrowed; +Infinity when a node of weight
     * zero borrows.
     */
    static double preciseWeightedShare(QuotaNode node) {
        if (node.parent == null) return 0;
        Map<String, Long> borrowed = new HashMap<>();
        for (Map.Entry<FlavorResource, Long> quota : node.subtreeQuota.entrySet()) {
            long amount = Amounts.subtract(node.usage(quota.getKey()), quota.getValue());
            if (amount > 0) borrowed.merge(quota.getKey().resource(), amount, Amounts::add);
        }
        if (borrowed.isEmpty()) return 0;
        Map<String, Long> lendable = new HashMap<>();
        for (FlavorResource fr : node.root().subtreeQuota.keySet()) {
            lendable.merge(fr.resource(), QuotaTree.potentialAvailable(node.parent, fr), Amounts::add);
        }
        double ratio = 0;
        for (Map.Entry<String, Long> entry : borrowed.entrySet()) {
            long pool = lendable.getOrDefault(entry.getKey(), 0L);
            if (pool > 0) ratio = Math.max(ratio, entry.getValue() * 1000.0 / pool);
        }
        if (ratio == 0) return 0;
        if (node.fairWeight == 0) return Double.POSITIVE_INFINITY;
        return ratio / node.fairWeight;
    }

    /** borrowed × 1000 / pool, in integers as Kueue computes it, in doubles only where the product would not fit a long. */
    private static long perMille(long borrowed, long pool) {
        if (borrowed <= Long.MAX_VALUE / 1000) return borrowed * 1000 / pool;
        return (long) Math.min(Long.MAX_VALUE, borrowed * 1000.0 / pool);
    }
}
