package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an agent reports, per flavor that names a Kueue Topology, about the flavor's nodes by topology
 * domain: the Topology's level label keys (outermost first, for example block, rack, hostname) and,
 * for every matching node, its value at each level and what is free on it. The manager aggregates
 * leaves into domains at any level; one node per entry keeps "how many pods of this shape fit" exact.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TopologyCapacity {
    /** The Topology object's name (ResourceFlavor spec.topologyName). */
    private String topologyName;
    /** Node label keys of the Topology's levels, outermost first. */
    private List<String> levels = new ArrayList<>();
    private List<NodeCapacity> nodes = new ArrayList<>();

    public String getTopologyName() { return topologyName; }
    public void setTopologyName(String topologyName) { this.topologyName = topologyName; }
    public List<String> getLevels() { return levels; }
    public void setLevels(List<String> levels) { this.levels = levels; }
    public List<NodeCapacity> getNodes() { return nodes; }
    public void setNodes(List<NodeCapacity> nodes) { this.nodes = nodes; }

    /** One schedulable node of the flavor: its value at each level (same order as levels) and its free resources. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class NodeCapacity {
        private List<String> values = new ArrayList<>();
        /** Quantity strings, what is free on this node now (allocatable minus requests of its pods). */
        private Map<String, String> free = new LinkedHashMap<>();

        public NodeCapacity() {}

        public NodeCapacity(List<String> values, Map<String, String> free) {
            this.values = new ArrayList<>(values);
            this.free = new LinkedHashMap<>(free);
        }

        public List<String> getValues() { return values; }
        public void setValues(List<String> values) { this.values = values; }
        public Map<String, String> getFree() { return free; }
        public void setFree(Map<String, String> free) { this.free = free; }
    }
}
