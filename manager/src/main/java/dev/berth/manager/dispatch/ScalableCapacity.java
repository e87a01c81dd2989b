package dev.berth.manager.dispatch;

import java.util.Map;

/**
 * How far one worker cluster can grow one flavor on request (its agent's autoscaling report), in canonical
 * units: {@code nodes} of it now, at most {@code maxNodes}, each added node with {@code perNode}; and
 * what is free on the current nodes.
 */
public record ScalableCapacity(String flavor, int nodes, int maxNodes, Map<String, Long> perNode, Map<String, Long> free) {
    public ScalableCapacity {
        perNode = Map.copyOf(perNode);
        free = Map.copyOf(free);
    }

    /** Nodes the autoscaler may still add. */
    public int addableNodes() {
        return Math.max(0, maxNodes - nodes);
    }

    /**
     * How many pods of this shape one added node holds, counting the resources the node group declares (a node
     * group that names only its GPUs is taken to have room for the pods' CPU and memory).
     */
    int podsPerNewNode(Map<String, Long> perPod) {
        long fit = Long.MAX_VALUE;
        for (Map.Entry<String, Long> request : perPod.entrySet()) {
            if (request.getValue() <= 0 || !perNode.containsKey(request.getKey())) continue;
            fit = Math.min(fit, perNode.getOrDefault(request.getKey(), 0L) / request.getValue());
        }
        return (int) Math.min(fit == Long.MAX_VALUE ? Integer.MAX_VALUE : fit, Integer.MAX_VALUE);
    }
}
