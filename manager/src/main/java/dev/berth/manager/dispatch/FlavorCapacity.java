package dev.berth.manager.dispatch;

import java.util.Map;

/**
 * Capacity of one flavor on one worker cluster, in canonical units (cpu in millicores, others whole
 * units): free on all matching nodes together, the largest amount free on a single node, and, when
 * the flavor names a Topology and the agent reports it, the free capacity per node by topology domain.
 */
public record FlavorCapacity(String flavor, Map<String, Long> free, Map<String, Long> largestFreeOnOneNode, TopologyNodes topology) {
    public FlavorCapacity {
        free = Map.copyOf(free);
        largestFreeOnOneNode = Map.copyOf(largestFreeOnOneNode);
    }

    /** Capacity without a topology report. */
    public FlavorCapacity(String flavor, Map<String, Long> free, Map<String, Long> largestFreeOnOneNode) {
        this(flavor, free, largestFreeOnOneNode, null);
    }

    public long free(String resource) {
        return free.getOrDefault(resource, 0L);
    }

    public long largestOnOneNode(String resource) {
        return largestFreeOnOneNode.getOrDefault(resource, 0L);
    }
}
