package dev.berth.manager.dispatch;

import java.util.Map;

/** One admitted pod set: pod count, what one pod requests (canonical units), and the flavor of each resource. */
public record PodSetDemand(String name, int count, Map<String, Long> perPodRequests, Map<String, String> flavors) {
    public PodSetDemand {
        perPodRequests = Map.copyOf(perPodRequests);
        flavors = Map.copyOf(flavors);
    }
}
