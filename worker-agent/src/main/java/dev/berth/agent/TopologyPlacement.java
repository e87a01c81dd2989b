package dev.berth.agent;

import dev.berth.protocol.crd.PodSetTopologyAssignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link TopologyAssigner} decided for one pod set: where its pods go (per pod, a node; the
 * assignment in Kueue's shape for the status; the node constraints the pods carry) or why it cannot.
 */
public final class TopologyPlacement {
    /** The label Kueue pins single nodes with, and the level whose values the assignment reports alone. */
    public static final String HOSTNAME = "kubernetes.io/hostname";

    private TopologyPlacement() {}

    public sealed interface Result {}

    /**
     * The pod set is placed. {@code after} accounts for its pods; {@code nodes} holds one node name per pod;
     * {@code domainLabels} are the level labels every assigned node shares (outermost first), which the pods
     * get as nodeSelector; {@code leafLevel} and {@code leafValues} pin the pods to the assigned lowest-level
     * domains (the hostnames, when the Topology goes down to the node); {@code podLeafValues} is, per pod in
     * the order of {@code nodes}, its lowest-level value.
     */
    public record Placed(ClusterSnapshot after, List<String> nodes, PodSetTopologyAssignment assignment,
                         Map<String, String> domainLabels, String leafLevel, List<String> leafValues,
                         List<String> podLeafValues) implements Result {
        public Placed {
            nodes = List.copyOf(nodes);
            podLeafValues = List.copyOf(podLeafValues);
            domainLabels = Collections.unmodifiableMap(new LinkedHashMap<>(domainLabels));
            leafValues = List.copyOf(leafValues);
        }
    }

    /** Not placed; the reason names the domain and how much room it has. */
    public record NotPlaced(String reason) implements Result {}

    static Result of(ClusterSnapshot snapshot, PodDemand demand, TopologyTree tree, List<TopologyDomain> fit) {
        List<TopologyDomain> leaves = new ArrayList<>(fit.stream().filter(d -> d.podCount > 0).toList());
        leaves.sort(Comparator.comparing(d -> String.join("/", d.values)));
        ClusterSnapshot current = snapshot;
        List<String> nodes = new ArrayList<>();
        List<String> podLeafValues = new ArrayList<>();
        List<PodSetTopologyAssignment.Domain> domains = new ArrayList<>();
        int lowest = tree.levels.size() - 1;
        boolean hostnameLowest = HOSTNAME.equals(tree.levels.get(lowest));
        for (TopologyDomain leaf : leaves) {
            for (int pod = 0; pod < leaf.podCount; pod++) {
                Optional<NodeState> node = firstWithRoom(current, leaf, demand);
                if (node.isEmpty()) {
                    return new NotPlaced("topology domain " + leaf.describe() + " of flavor " + demand.requirement().flavor()
                            + " has no node left for pod set " + demand.podSet());
                }
                current = current.with(node.get().plus(demand.requests()));
                nodes.add(node.get().name());
                podLeafValues.add(leaf.values.get(lowest));
            }
            List<String> values = hostnameLowest ? List.of(leaf.values.get(lowest)) : leaf.values;
            domains.add(new PodSetTopologyAssignment.Domain(values, leaf.podCount));
        }
        List<String> levels = hostnameLowest ? List.of(HOSTNAME) : tree.levels;
        return new Placed(current, nodes, new PodSetTopologyAssignment(demand.podSet(), levels, domains),
                sharedLabels(tree.levels, leaves), tree.levels.get(lowest), leaves.stream().map(l -> l.values.get(lowest)).toList(),
                podLeafValues);
    }

    /** A leaf's node that still has room for one more pod, as the scheduler would pick it (nodes by name). */
    private static Optional<NodeState> firstWithRoom(ClusterSnapshot current, TopologyDomain leaf, PodDemand demand) {
        for (NodeState original : leaf.nodes) {
            NodeState now = current.nodes().stream().filter(n -> n.name().equals(original.name())).findFirst().orElse(original);
            if (now.fits(demand.requests())) return Optional.of(now);
        }
        return Optional.empty();
    }

    /** The level labels all leaves share, outermost first, stopping at the first level where they differ. */
    private static Map<String, String> sharedLabels(List<String> levels, List<TopologyDomain> leaves) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (leaves.isEmpty()) return labels;
        for (int level = 0; level < levels.size(); level++) {
            String value = leaves.get(0).values.get(level);
            int index = level;
            if (!leaves.stream().allMatch(l -> l.values.get(index).equals(value))) break;
            labels.put(levels.get(level), value);
        }
        return labels;
    }
}
