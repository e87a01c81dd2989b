package dev.berth.manager.dispatch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent's capacity report lags the manager's own dispatches by a heartbeat or two. Until a report
 * has had time to include them, the workloads just dispatched to a cluster are taken off its free
 * capacity, so two placements in a row do not both count on the same GPUs.
 */
public final class InFlightDispatches {
    private InFlightDispatches() {}

    public static ClusterView withoutInFlight(ClusterView view, List<PlacementRequest> inFlight) {
        if (inFlight.isEmpty()) return view;
        // summed per flavor and resource first, then taken off once: the same as taking each request off in
        // turn (free never goes below zero, and the largest node is capped by what is left), one copy per flavor
        Map<String, Map<String, Long>> used = new HashMap<>();
        for (PlacementRequest request : inFlight) {
            for (Map.Entry<String, Map<String, Long>> byFlavor : request.totalByFlavor().entrySet()) {
                if (!view.flavors().containsKey(byFlavor.getKey())) continue;
                Map<String, Long> sums = used.computeIfAbsent(byFlavor.getKey(), f -> new HashMap<>());
                byFlavor.getValue().forEach((resource, amount) -> sums.merge(resource, amount, Long::sum));
            }
        }
        Map<String, FlavorCapacity> adjusted = new HashMap<>(view.flavors());
        used.forEach((flavor, sums) -> {
            FlavorCapacity capacity = adjusted.get(flavor);
            Map<String, Long> free = new HashMap<>(capacity.free());
            Map<String, Long> largest = new HashMap<>(capacity.largestFreeOnOneNode());
            sums.forEach((resource, amount) -> {
                long left = Math.max(0, capacity.free(resource) - amount);
                free.put(resource, left);
                largest.put(resource, Math.min(capacity.largestOnOneNode(resource), left));
            });
            adjusted.put(flavor, new FlavorCapacity(capacity.flavor(), free, largest, capacity.topology()));
        });
        return view.withFlavors(InFlightTopology.withoutInFlight(adjusted, inFlight));
    }
}
