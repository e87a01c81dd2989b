package dev.berth.manager.dispatch;

import java.util.Map;

/**
 * Capacity of one flavor on one worker cluster, in canonical units (cpu in millicores, others whole
 * units): free on all matching nodes together, and the largest amount free on a single node.
 */
public record FlavorCapacity(String flavor, Map<String, Long> free, Map<String, Long> largestFreeOnOneNode) {
    public FlavorCapacity {
        free = Map.copyOf(free);
        largestFreeOnOneNode = Map.copyOf(largestFreeOnOneNode);
    }

    public long free(String resource) {
        return free.getOrDefault(resource, 0L);
    }

    public long largestOnOneNode(String resource) {
        return largestFreeOnOneNode.getOrDefault(resource, 0L);
    }
}
