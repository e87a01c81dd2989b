package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/** One pod set of a dispatched workload: how many pods, what each requests, and the flavor per resource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetPlacement {
    private String name;
    private int count;
    /** Per-pod requests as quantity strings. */
    private Map<String, String> requests = new LinkedHashMap<>();
    /** resource name to flavor name. */
    private Map<String, String> flavors = new LinkedHashMap<>();
    /** The topology request and chosen domain, when the pod set asks for one and its flavor has a Topology. */
    private PodSetTopology topology;

    public PodSetPlacement() {}

    public PodSetPlacement(String name, int count, Map<String, String> requests, Map<String, String> flavors) {
        this.name = name;
        this.count = count;
        this.requests = new LinkedHashMap<>(requests);
        this.flavors = new LinkedHashMap<>(flavors);
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public int getCount() { return count; }
    public void setCount(int count) { this.count = count; }
    public Map<String, String> getRequests() { return requests; }
    public void setRequests(Map<String, String> requests) { this.requests = requests; }
    public Map<String, String> getFlavors() { return flavors; }
    public void setFlavors(Map<String, String> flavors) { this.flavors = flavors; }
    public PodSetTopology getTopology() { return topology; }
    public void setTopology(PodSetTopology topology) { this.topology = topology; }
}
