package dev.berth.manager.dispatch;

import java.util.Map;

/**
 * One admitted pod set: pod count, what one pod requests (canonical units), the flavor of each
 * resource, and its topology request (null: none, placed as before).
 */
public record PodSetDemand(String name, int count, Map<String, Long> perPodRequests, Map<String, String> flavors, TopologyRequest topology) {
    public PodSetDemand {
        perPodRequests = Map.copyOf(perPodRequests);
        flavors = Map.copyOf(flavors);
    }

    public PodSetDemand(String name, int count, Map<String, Long> perPodRequests, Map<String, String> flavors) {
        this(name, count, perPodRequests, flavors, null);
    }
}
