package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceQuota;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node of the cohort tree: a ClusterQueue (a leaf) or a Cohort. It holds its own quotas, the
 * quota of its whole subtree as seen by its parent, and the usage of its subtree.
 */
final class QuotaNode {
    final String name;
    final boolean clusterQueue;
    final Map<FlavorResource, ResourceQuota> quotas;
    final double fairWeight;
    final Map<FlavorResource, Long> subtreeQuota = new HashMap<>();
    final Map<FlavorResource, Long> usage = new HashMap<>();
    final List<QuotaNode> children = new ArrayList<>();
    QuotaNode parent;

    QuotaNode(String name, boolean clusterQueue, Map<FlavorResource, ResourceQuota> quotas, double fairWeight) {
        this.name = name;
        this.clusterQueue = clusterQueue;
        this.quotas = quotas;
        this.fairWeight = fairWeight;
    }

    long usage(FlavorResource fr) {
        return usage.getOrDefault(fr, 0L);
    }

    long subtreeQuota(FlavorResource fr) {
        return subtreeQuota.getOrDefault(fr, 0L);
    }

    long nominal(FlavorResource fr) {
        ResourceQuota quota = quotas.get(fr);
        return quota == null ? 0 : quota.nominal();
    }

    Long borrowingLimit(FlavorResource fr) {
        ResourceQuota quota = quotas.get(fr);
        return quota == null ? null : quota.borrowingLimit();
    }

    /** What this node keeps for itself: the part of its subtree quota that it does not lend. */
    long guaranteedQuota(FlavorResource fr) {
        ResourceQuota quota = quotas.get(fr);
        if (quota == null || quota.lendingLimit() == null) return 0;
        return Math.max(0, Amounts.subtract(subtreeQuota(fr), quota.lendingLimit()));
    }

    QuotaNode root() {
        QuotaNode node = this;
        while (node.parent != null) node = node.parent;
        return node;
    }
}
