package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an agent reports with each heartbeat, as JSON in the annotation
 * {@link dev.berth.protocol.Annotations#AGENT_CAPACITY} of its Lease: per flavor of the catalogue,
 * the capacity of the matching nodes and what is free on them now.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityReport {
    /** RFC 3339 time the report was made. */
    private String time;
    /** The agent's version, for operators. */
    private String agentVersion;
    private List<FlavorCapacity> flavors = new ArrayList<>();

    public String getTime() { return time; }
    public void setTime(String time) { this.time = time; }
    public String getAgentVersion() { return agentVersion; }
    public void setAgentVersion(String agentVersion) { this.agentVersion = agentVersion; }
    public List<FlavorCapacity> getFlavors() { return flavors; }
    public void setFlavors(List<FlavorCapacity> flavors) { this.flavors = flavors; }

    /** Capacity of one flavor on the cluster. Quantities are Kubernetes quantity strings. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class FlavorCapacity {
        private String name;
        /** Nodes matching the flavor's nodeLabels whose taints the flavor tolerates. */
        private int nodes;
        private Map<String, String> allocatable = new LinkedHashMap<>();
        private Map<String, String> free = new LinkedHashMap<>();
        /** The largest amount free on a single matching node, per resource: what one pod can get. */
        private Map<String, String> largestFreeOnOneNode = new LinkedHashMap<>();
        /** Free capacity per node by topology domain, when the flavor names a Topology; null otherwise. */
        private TopologyCapacity topology;
        /** How far the cluster can grow this flavor on request (ProvisioningRequest); null when it cannot. */
        private AutoscalingCapacity autoscaling;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public int getNodes() { return nodes; }
        public void setNodes(int nodes) { this.nodes = nodes; }
        public Map<String, String> getAllocatable() { return allocatable; }
        public void setAllocatable(Map<String, String> allocatable) { this.allocatable = allocatable; }
        public Map<String, String> getFree() { return free; }
        public void setFree(Map<String, String> free) { this.free = free; }
        public Map<String, String> getLargestFreeOnOneNode() { return largestFreeOnOneNode; }
        public void setLargestFreeOnOneNode(Map<String, String> largestFreeOnOneNode) { this.largestFreeOnOneNode = largestFreeOnOneNode; }
        public TopologyCapacity getTopology() { return topology; }
        public void setTopology(TopologyCapacity topology) { this.topology = topology; }
        public AutoscalingCapacity getAutoscaling() { return autoscaling; }
        public void setAutoscaling(AutoscalingCapacity autoscaling) { this.autoscaling = autoscaling; }
    }
}
