package dev.berth.manager.model;

import java.util.Map;

/** The admission of one pod set: the flavor of each resource, the total usage, and the pod count admitted. */
public record PodSetAssignment(String name, Map<String, String> flavors, Map<String, Long> resourceUsage, int count) {
    public PodSetAssignment {
        flavors = Map.copyOf(flavors);
        resourceUsage = Map.copyOf(resourceUsage);
    }
}
