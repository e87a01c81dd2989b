package dev.berth.manager.dispatch;

import java.util.List;
import java.util.Map;

/**
 * What an agent reported about one flavor's nodes by topology domain: the Topology's level label
 * keys, outermost first, and per node its value at each level and what is free on it (canonical units).
 */
public record TopologyNodes(String topologyName, List<String> levels, List<Node> nodes) {
    public TopologyNodes {
        levels = List.copyOf(levels);
        nodes = List.copyOf(nodes);
    }

    /** One node: its domain value at every level (same order as levels) and its free resources. */
    public record Node(List<String> values, Map<String, Long> free) {
        public Node {
            values = List.copyOf(values);
            free = Map.copyOf(free);
        }

        public long free(String resource) {
            return free.getOrDefault(resource, 0L);
        }
    }

    /** A short name for a level label, for messages: "cloud.provider.com/topology-rack" reads "rack". */
    public static String shortName(String label) {
        String name = label.substring(label.lastIndexOf('/') + 1);
        int dash = name.lastIndexOf('-');
        return dash >= 0 && dash < name.length() - 1 ? name.substring(dash + 1) : name;
    }
}
