package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/**
 * One pod set of a workload as the scheduler sees it: how many pods, the smallest count it accepts
 * (partial admission; null when it needs all), what one pod requests in canonical units (without the
 * implicit {@code pods} resource, which the flavor assigner adds when the queue covers it), and what
 * decides which flavors its pods may land on.
 */
public record PodSetRequest(String name,
                            int count,
                            Integer minCount,
                            Map<String, Long> perPodRequests,
                            Map<String, String> nodeSelector,
                            List<List<LabelRequirement>> requiredNodeAffinity,
                            List<Toleration> tolerations) {
    public PodSetRequest {
        perPodRequests = Map.copyOf(perPodRequests);
        nodeSelector = Map.copyOf(nodeSelector);
        requiredNodeAffinity = requiredNodeAffinity.stream().map(List::copyOf).toList();
        tolerations = List.copyOf(tolerations);
    }
}
