package dev.berth.manager.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology side of {@link InFlightDispatches}: a gang just dispatched with a topology request is
 * taken off the nodes of the domain placement gives it on this report (the same, deterministic choice
 * it was dispatched with while the report is unchanged), so the next gang does not count on the same
 * rack before the agent's next heartbeat includes the first. Pure.
 */
final class InFlightTopology {
    private InFlightTopology() {}

    static Map<String, FlavorCapacity> withoutInFlight(Map<String, FlavorCapacity> flavors, List<PlacementRequest> inFlight) {
        Map<String, FlavorCapacity> adjusted = new HashMap<>(flavors);
        for (PlacementRequest request : inFlight) {
            for (PodSetDemand podSet : request.podSets()) {
                if (podSet.topology() == null) continue;
                String flavor = TopologyFit.flavorOf(podSet);
                FlavorCapacity capacity = flavor == null ? null : adjusted.get(flavor);
                if (capacity == null || capacity.topology() == null) continue;
                TopologyFit.Outcome outcome = TopologyFit.place(podSet, capacity);
                if (!outcome.fits()) continue;
                adjusted.put(flavor, new FlavorCapacity(capacity.flavor(), capacity.free(), capacity.largestFreeOnOneNode(),
                        taken(capacity.topology(), podSet, flavor, outcome.choice().domain())));
            }
        }
        return adjusted;
    }

    /** The nodes with the pod set's pods taken off the domain's nodes, node by node in report order. */
    private static TopologyNodes taken(TopologyNodes topology, PodSetDemand podSet, String flavor, List<String> domain) {
        Map<String, Long> perPod = new HashMap<>();
        podSet.perPodRequests().forEach((resource, amount) -> {
            if (amount > 0 && flavor.equals(podSet.flavors().get(resource))) perPod.put(resource, amount);
        });
        long left = podSet.count();
        List<TopologyNodes.Node> nodes = new ArrayList<>();
        for (TopologyNodes.Node node : topology.nodes()) {
            if (left == 0 || !node.values().subList(0, Math.min(domain.size(), node.values().size())).equals(domain)) {
                nodes.add(node);
                continue;
            }
            long fit = left;
            for (Map.Entry<String, Long> request : perPod.entrySet()) fit = Math.min(fit, node.free(request.getKey()) / request.getValue());
            if (fit <= 0) {
                nodes.add(node);
                continue;
            }
            left -= fit;
            Map<String, Long> free = new HashMap<>(node.free());
            for (Map.Entry<String, Long> request : perPod.entrySet()) free.merge(request.getKey(), -fit * request.getValue(), Long::sum);
            nodes.add(new TopologyNodes.Node(node.values(), free));
        }
        return new TopologyNodes(topology.topologyName(), topology.levels(), nodes);
    }
}
