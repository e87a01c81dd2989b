package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/**
 * A ResourceFlavor: the node labels that identify its nodes, their taints, tolerations added to admitted pods,
 * and the Topology it names for Topology Aware Scheduling ({@code spec.topologyName}, null when none).
 */
public record ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations,
                             String topologyName) {
    public ResourceFlavor {
        nodeLabels = Map.copyOf(nodeLabels);
        nodeTaints = List.copyOf(nodeTaints);
        tolerations = List.copyOf(tolerations);
    }

    /** A flavor without a Topology. */
    public ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {
        this(name, nodeLabels, nodeTaints, tolerations, null);
    }

    public static ResourceFlavor named(String name) {
        return new ResourceFlavor(name, Map.of(), List.of(), List.of());
    }
}
