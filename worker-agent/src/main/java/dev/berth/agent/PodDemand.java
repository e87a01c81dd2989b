package dev.berth.agent;

import java.util.Map;

/** One pod set of an attempt as admission sees it: how many pods, what each requests, where they may go. */
public record PodDemand(String podSet, int count, Map<String, Long> requests, NodeRequirement requirement) {
    public PodDemand {
        requests = Map.copyOf(requests);
    }
}
