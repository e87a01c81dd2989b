package dev.berth.manager.scheduling;

import java.util.List;
import java.util.Map;

/**
 * The flavor assignment of one pod set: the flavor of each resource, the total requested usage,
 * how it fits, and, when it does not fit, the reasons in Kueue's wording.
 */
public record PodSetFlavors(String name,
                            int count,
                            Map<String, String> flavors,
                            Map<String, Long> resourceUsage,
                            FitMode mode,
                            boolean borrows,
                            List<String> reasons) {
    public PodSetFlavors {
        flavors = Map.copyOf(flavors);
        resourceUsage = Map.copyOf(resourceUsage);
        reasons = List.copyOf(reasons);
    }
}
