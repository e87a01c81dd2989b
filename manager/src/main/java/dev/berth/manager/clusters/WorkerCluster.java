package dev.berth.manager.clusters;

import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.model.Quantity;
import dev.berth.protocol.crd.CapacityReport;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** The manager's knowledge of one worker cluster. Mutated on the state thread only. */
final class WorkerCluster {
    final String name;
    final long generation;
    ClusterCalls calls;
    boolean connected;
    String lastError;
    boolean catalogueCurrent;
    boolean polling;
    Instant lastHeartbeat;
    CapacityReport capacity;

    WorkerCluster(String name, long generation) {
        this.name = name;
        this.generation = generation;
    }

    ClusterView view() {
        Map<String, FlavorCapacity> flavors = new HashMap<>();
        if (capacity != null) {
            for (CapacityReport.FlavorCapacity flavor : capacity.getFlavors()) {
                // A flavor no node of the cluster belongs to is missing there, not merely full.
                if (flavor.getNodes() == 0) continue;
                flavors.put(flavor.getName(), new FlavorCapacity(flavor.getName(), amounts(flavor.getFree()),
                        amounts(flavor.getLargestFreeOnOneNode())));
            }
        }
        return new ClusterView(name, connected, false, lastHeartbeat, flavors);
    }

    private static Map<String, Long> amounts(Map<String, String> quantities) {
        Map<String, Long> amounts = new HashMap<>();
        if (quantities == null) return amounts;
        quantities.forEach((resource, quantity) -> {
            try {
                amounts.put(resource, Quantity.amount(resource, quantity));
            } catch (RuntimeException unreadable) {
                // an unreadable quantity counts as nothing free
            }
        });
        return amounts;
    }
}
