package dev.berth.agent;

import dev.berth.protocol.crd.PodSetTopology;
import java.util.Map;

/**
 * One pod set of an attempt as admission sees it: how many pods, what each requests, where they may go,
 * and its topology request with the manager's chosen domain (null when the pod set has none, or its
 * flavor names no Topology).
 */
public record PodDemand(String podSet, int count, Map<String, Long> requests, NodeRequirement requirement, PodSetTopology topology) {
    public PodDemand {
        requests = Map.copyOf(requests);
    }

    public PodDemand(String podSet, int count, Map<String, Long> requests, NodeRequirement requirement) {
        this(podSet, count, requests, requirement, null);
    }

    /** Whether the pods must be placed by topology (a request over a flavor with topology levels). */
    public boolean hasTopology() {
        return topology != null && topology.getLevels() != null && !topology.getLevels().isEmpty();
    }

    /** The same pod set with fewer pods. */
    public PodDemand withCount(int fewer) {
        return new PodDemand(podSet, fewer, requests, requirement, topology);
    }
}
