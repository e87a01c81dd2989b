package dev.berth.manager.dispatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a workload that fits nowhere now can wait for capacity on request: among the eligible clusters
 * (connected, not cordoned, healthy, breaker closed, heartbeat reported) whose agent reports an autoscaling
 * capacity for every flavor the workload uses, the one that needs the fewest new nodes, counting the
 * pods that fit whole into what is free now (ties by name). Pure.
 */
public final class ScalablePlacement {
    /** The chosen cluster and the nodes it must add. */
    public record Choice(String cluster, int nodesToAdd) {}

    private ScalablePlacement() {}

    public static Optional<Choice> choose(PlacementRequest request, List<ClusterView> views, Map<String, Map<String, ScalableCapacity>> scalable) {
        List<Choice> choices = new ArrayList<>();
        for (ClusterView view : views) {
            if (!eligible(view)) continue;
            Map<String, ScalableCapacity> flavors = scalable.getOrDefault(view.name(), Map.of());
            Integer nodes = nodesToAdd(request, flavors);
            if (nodes != null) choices.add(new Choice(view.name(), nodes));
        }
        return choices.stream().min(Comparator.comparingInt(Choice::nodesToAdd).thenComparing(Choice::cluster));
    }

    static boolean eligible(ClusterView view) {
        if (!view.connected() || view.cordoned() || view.lastHeartbeat() == null || view.breaker() == BreakerState.OPEN) return false;
        return view.health() == null || view.health() == ClusterHealth.HEALTHY || view.health() == ClusterHealth.DEGRADED;
    }

    /** The new nodes the request needs across its flavors, or null when some flavor cannot grow enough. */
    static Integer nodesToAdd(PlacementRequest request, Map<String, ScalableCapacity> flavors) {
        Map<String, Integer> perFlavor = new HashMap<>();
        Map<String, Map<String, Long>> freeLeft = new HashMap<>();
        for (PodSetDemand podSet : request.podSets()) {
            String flavor = podSet.flavors().values().stream().findFirst().orElse(null);
            ScalableCapacity capacity = flavor == null ? null : flavors.get(flavor);
            if (capacity == null) return null;
            Map<String, Long> free = freeLeft.computeIfAbsent(flavor, f -> new HashMap<>(capacity.free()));
            int onFree = podsFitting(podSet.perPodRequests(), free, podSet.count());
            int rest = podSet.count() - onFree;
            if (rest <= 0) continue;
            int perNode = capacity.podsPerNewNode(podSet.perPodRequests());
            if (perNode <= 0) return null;
            int nodes = perFlavor.getOrDefault(flavor, 0) + (rest + perNode - 1) / perNode;
            if (nodes > capacity.addableNodes()) return null;
            perFlavor.put(flavor, nodes);
        }
        return perFlavor.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Pods taken whole from the free pool (which shrinks), up to count; a rough total, as the placement's own fit. */
    private static int podsFitting(Map<String, Long> perPod, Map<String, Long> free, int count) {
        int fitted = 0;
        while (fitted < count) {
            for (Map.Entry<String, Long> request : perPod.entrySet()) {
                if (free.getOrDefault(request.getKey(), 0L) < request.getValue()) return fitted;
            }
            perPod.forEach((resource, amount) -> free.merge(resource, -amount, Long::sum));
            fitted++;
        }
        return fitted;
    }
}
