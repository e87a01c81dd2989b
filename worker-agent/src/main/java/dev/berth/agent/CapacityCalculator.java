package dev.berth.agent;

import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.CapacityReport.FlavorCapacity;
import dev.berth.protocol.crd.FlavorDefinition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per flavor of the catalogue: the matching nodes, their allocatable, what is free, the most free on one node,
 * and for a flavor with topology levels the free capacity per node by domain ({@link TopologyCapacityCalculator}).
 */
public final class CapacityCalculator {
    private CapacityCalculator() {}

    public static CapacityReport report(ClusterSnapshot snapshot, List<FlavorDefinition> catalogue, Instant time, String agentVersion) {
        CapacityReport report = new CapacityReport();
        report.setTime(time.toString());
        report.setAgentVersion(agentVersion);
        for (FlavorDefinition flavor : catalogue) report.getFlavors().add(flavorCapacity(snapshot, flavor));
        return report;
    }

    public static FlavorCapacity flavorCapacity(ClusterSnapshot snapshot, FlavorDefinition flavor) {
        NodeRequirement requirement = NodeRequirement.of(flavor);
        Map<String, Long> allocatable = new TreeMap<>();
        Map<String, Long> free = new TreeMap<>();
        Map<String, Long> largest = new TreeMap<>();
        int nodes = 0;
        for (NodeState node : snapshot.nodes()) {
            if (!requirement.matches(node)) continue;
            nodes++;
            for (String resource : ResourceAmount.TRACKED) {
                if (!node.allocatable().containsKey(resource)) continue;
                long nodeFree = Math.max(0, node.free(resource));
                allocatable.merge(resource, node.allocatable().get(resource), Long::sum);
                free.merge(resource, nodeFree, Long::sum);
                largest.merge(resource, nodeFree, Math::max);
            }
        }
        FlavorCapacity capacity = new FlavorCapacity();
        capacity.setName(flavor.getName());
        capacity.setNodes(nodes);
        allocatable.forEach((r, a) -> capacity.getAllocatable().put(r, ResourceAmount.format(r, a)));
        free.forEach((r, a) -> capacity.getFree().put(r, ResourceAmount.format(r, a)));
        largest.forEach((r, a) -> capacity.getLargestFreeOnOneNode().put(r, ResourceAmount.format(r, a)));
        TopologyCapacityCalculator.of(snapshot, flavor).ifPresent(capacity::setTopology);
        return capacity;
    }
}
