package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/** A ResourceFlavor: the node labels that identify its nodes, their taints, and tolerations added to admitted pods. */
public record ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints, List<Toleration> tolerations) {
    public ResourceFlavor {
        nodeLabels = Map.copyOf(nodeLabels);
        nodeTaints = List.copyOf(nodeTaints);
        tolerations = List.copyOf(tolerations);
    }

    public static ResourceFlavor named(String name) {
        return new ResourceFlavor(name, Map.of(), List.of(), List.of());
    }
}
