package dev.berth.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * One domain of a flavor's topology tree during one assignment (Kueue's {@code domain} with its
 * {@code domainState}): its values down to its level, its children (or its node, for a leaf), how many
 * pods and slices of the pod set fit in it, and whether it lies on the path to the domain the manager
 * chose. Mutable scratch state owned by a single {@link TopologyAssigner} run.
 */
final class TopologyDomain {
    final List<String> values;
    final int level;
    final TopologyDomain parent;
    final List<TopologyDomain> children = new ArrayList<>();
    /**
     * The nodes of a leaf (a domain at the lowest level): one when that level is the hostname, every node
     * of the rack (say) when the Topology stops above the node. Empty for inner domains.
     */
    final List<NodeState> nodes = new ArrayList<>();
    int podCount;
    int sliceCount;
    boolean preferred;

    TopologyDomain(List<String> values, int level, TopologyDomain parent) {
        this.values = List.copyOf(values);
        this.level = level;
        this.parent = parent;
    }

    boolean isLeaf() {
        return !nodes.isEmpty();
    }

    TopologyDomain child(String value) {
        for (TopologyDomain child : children) {
            if (child.values.get(child.values.size() - 1).equals(value)) return child;
        }
        return null;
    }

    /** {@code block-1/rack-2}, or {@code the whole flavor} for the root. */
    String describe() {
        return values.isEmpty() ? "the whole flavor" : String.join("/", values);
    }
}
