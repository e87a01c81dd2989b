package dev.berth.agent;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.TopologyCapacity;
import dev.berth.protocol.crd.TopologyCapacity.NodeCapacity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The per-node part of a flavor's capacity report when the flavor names a Kueue Topology: for every
 * schedulable node of the flavor that carries a label for each topology level, its value at each level
 * (outermost first) and what is free on it. A node missing a level's label is not part of the
 * topology, as in Kueue, where such a node belongs to no domain and TAS never places a pod on it.
 */
public final class TopologyCapacityCalculator {
    private TopologyCapacityCalculator() {}

    /** Empty when the flavor has no topology levels: its report stays exactly as without topology. */
    public static Optional<TopologyCapacity> of(ClusterSnapshot snapshot, FlavorDefinition flavor) {
        List<String> levels = flavor.getTopologyLevels();
        if (levels == null || levels.isEmpty()) return Optional.empty();
        NodeRequirement requirement = NodeRequirement.of(flavor);
        TopologyCapacity capacity = new TopologyCapacity();
        capacity.setTopologyName(flavor.getTopologyName());
        capacity.setLevels(new ArrayList<>(levels));
        for (NodeState node : snapshot.nodes()) {
            if (!requirement.matches(node)) continue;
            Optional<List<String>> values = levelValues(node, levels);
            if (values.isEmpty()) continue;
            capacity.getNodes().add(new NodeCapacity(values.get(), free(node)));
        }
        return Optional.of(capacity);
    }

    /** The node's value at each level, or empty when it lacks one of the level labels. */
    public static Optional<List<String>> levelValues(NodeState node, List<String> levels) {
        List<String> values = new ArrayList<>(levels.size());
        for (String level : levels) {
            String value = node.labels().get(level);
            if (value == null || value.isEmpty()) return Optional.empty();
            values.add(value);
        }
        return Optional.of(values);
    }

    private static Map<String, String> free(NodeState node) {
        Map<String, String> free = new LinkedHashMap<>();
        for (String resource : ResourceAmount.TRACKED) {
            if (!node.allocatable().containsKey(resource)) continue;
            free.put(resource, ResourceAmount.format(resource, Math.max(0, node.free(resource))));
        }
        return free;
    }
}
