package dev.berth.manager.clusters;

import dev.berth.manager.dispatch.BreakerState;
import dev.berth.manager.dispatch.ClusterContact;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.ClusterHealthSnapshot;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.manager.model.Quantity;
import dev.berth.protocol.crd.CapacityReport;
import java.time.Instant;
import dev.berth.manager.dispatch.TopologyNodes;
import dev.berth.protocol.crd.TopologyCapacity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The manager's knowledge of one worker cluster. Mutated on the state thread only. */
final class WorkerCluster {
    final String name;
    final long generation;
    final KubeconfigSource source;
    final Instant connectedAt;
    ClusterCalls calls;
    boolean connected;
    String lastError;
    boolean catalogueCurrent;
    boolean polling;
    Instant lastHeartbeat;
    CapacityReport capacity;
    HealthAssessment health;
    /** When the cluster was found lost (Unreachable or AgentLost); null while it is not. */
    Instant lostSince;

    WorkerCluster(String name, long generation, KubeconfigSource source, Instant connectedAt) {
        this.name = name;
        this.generation = generation;
        this.source = source;
        this.connectedAt = connectedAt;
    }

    BreakerState breaker() {
        return calls == null ? BreakerState.CLOSED : calls.breakerState();
    }

    ClusterContact contact() {
        Instant lastSuccess = calls == null ? null : calls.lastSuccess();
        String error = lastError != null ? lastError : calls == null ? "no client yet" : calls.lastError();
        boolean failed = !connected || (calls != null && calls.lastError() != null);
        return new ClusterContact(breaker(), lastSuccess, failed, error, lastHeartbeat, connectedAt);
    }

    ClusterView view(boolean cordoned) {
        Map<String, FlavorCapacity> flavors = new HashMap<>();
        if (capacity != null) {
            for (CapacityReport.FlavorCapacity flavor : capacity.getFlavors()) {
                // A flavor no node of the cluster belongs to is missing there, not merely full.
                if (flavor.getNodes() == 0) continue;
                flavors.put(flavor.getName(), new FlavorCapacity(flavor.getName(), amounts(flavor.getFree()),
                        amounts(flavor.getLargestFreeOnOneNode()), topology(flavor.getTopology())));
            }
        }
        return new ClusterView(name, connected, cordoned, lastHeartbeat, flavors, health == null ? null : health.health(), breaker());
    }

    /** Per flavor, how far the cluster can grow it on request, as its agent reports (issue 18); empty when it cannot. */
    Map<String, dev.berth.manager.dispatch.ScalableCapacity> scalable() {
        Map<String, dev.berth.manager.dispatch.ScalableCapacity> scalable = new HashMap<>();
        if (capacity == null) return scalable;
        for (CapacityReport.FlavorCapacity flavor : capacity.getFlavors()) {
            var autoscaling = flavor.getAutoscaling();
            if (autoscaling == null || autoscaling.getMaxNodes() <= 0) continue;
            scalable.put(flavor.getName(), new dev.berth.manager.dispatch.ScalableCapacity(flavor.getName(), flavor.getNodes(),
                    autoscaling.getMaxNodes(), amounts(autoscaling.getNodeAllocatable()), amounts(flavor.getFree())));
        }
        return scalable;
    }

    ClusterHealthSnapshot snapshot(boolean cordoned, boolean draining) {
        ClusterHealth current = health == null ? ClusterHealth.DEGRADED : health.health();
        String message = health == null ? "not assessed yet" : health.message();
        return new ClusterHealthSnapshot(name, current, message, breaker(), lastHeartbeat, lostSince, cordoned, draining);
    }

    /** The agent's per-node report by topology domain, in canonical units; null when it sent none. */
    static TopologyNodes topology(TopologyCapacity report) {
        if (report == null || report.getLevels() == null || report.getLevels().isEmpty()) return null;
        List<TopologyNodes.Node> nodes = new ArrayList<>();
        for (TopologyCapacity.NodeCapacity node : report.getNodes()) {
            if (node.getValues() == null || node.getValues().size() != report.getLevels().size()) continue;
            nodes.add(new TopologyNodes.Node(node.getValues(), amounts(node.getFree())));
        }
        return new TopologyNodes(report.getTopologyName(), report.getLevels(), nodes);
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
