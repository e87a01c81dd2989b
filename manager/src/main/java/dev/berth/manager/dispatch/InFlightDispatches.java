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
        Map<String, FlavorCapacity> adjusted = new HashMap<>(view.flavors());
        for (PlacementRequest request : inFlight) {
            for (Map.Entry<String, Map<String, Long>> byFlavor : request.totalByFlavor().entrySet()) {
                FlavorCapacity capacity = adjusted.get(byFlavor.getKey());
                if (capacity == null) continue;
                Map<String, Long> free = new HashMap<>(capacity.free());
                Map<String, Long> largest = new HashMap<>(capacity.largestFreeOnOneNode());
                for (Map.Entry<String, Long> used : byFlavor.getValue().entrySet()) {
                    long left = Math.max(0, capacity.free(used.getKey()) - used.getValue());
                    free.put(used.getKey(), left);
                    largest.put(used.getKey(), Math.min(capacity.largestOnOneNode(used.getKey()), left));
                }
                adjusted.put(byFlavor.getKey(), new FlavorCapacity(capacity.flavor(), free, largest, capacity.topology()));
            }
        }
        return view.withFlavors(InFlightTopology.withoutInFlight(adjusted, inFlight));
    }
}
