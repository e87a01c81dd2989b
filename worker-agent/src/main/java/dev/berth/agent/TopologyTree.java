package dev.berth.agent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A flavor's nodes arranged by topology level (Kueue's TAS flavor snapshot): a root above the outermost
 * level, one domain per distinct value prefix, leaves at the lowest level holding the schedulable nodes
 * of the flavor that carry every level label. Each leaf counts how many pods of the pod set it can take; parents sum them, and
 * slices are counted at the slice level and summed above it (Kueue's fillInCountsHelper without leaders).
 */
final class TopologyTree {
    final List<String> levels;
    final TopologyDomain root;

    private TopologyTree(List<String> levels, TopologyDomain root) {
        this.levels = List.copyOf(levels);
        this.root = root;
    }

    static TopologyTree build(ClusterSnapshot snapshot, PodDemand demand, List<String> levels, int sliceLevel, int sliceSize) {
        TopologyDomain root = new TopologyDomain(List.of(), -1, null);
        for (NodeState node : snapshot.nodes()) {
            if (!demand.requirement().matches(node)) continue;
            var values = TopologyCapacityCalculator.levelValues(node, levels);
            if (values.isEmpty()) continue;
            TopologyDomain current = root;
            for (int level = 0; level < levels.size(); level++) {
                TopologyDomain next = current.child(values.get().get(level));
                if (next == null) {
                    next = new TopologyDomain(values.get().subList(0, level + 1), level, current);
                    current.children.add(next);
                }
                current = next;
            }
            current.nodes.add(node);
            current.podCount += podsThatFit(node, demand.requests());
        }
        TopologyTree tree = new TopologyTree(levels, root);
        tree.fillCounts(root, sliceLevel, sliceSize);
        tree.sortChildren(root);
        return tree;
    }

    /** The domain with these values (outermost first), or the deepest existing ancestor's child that is missing: null. */
    TopologyDomain find(List<String> values) {
        TopologyDomain current = root;
        for (String value : values) {
            current = current.child(value);
            if (current == null) return null;
        }
        return current;
    }

    /** Every domain at this level. */
    List<TopologyDomain> atLevel(int level) {
        List<TopologyDomain> result = new ArrayList<>();
        collect(root, level, result);
        return result;
    }

    private static void collect(TopologyDomain domain, int level, List<TopologyDomain> into) {
        if (domain.level == level) {
            into.add(domain);
            return;
        }
        for (TopologyDomain child : domain.children) collect(child, level, into);
    }

    /** How many pods with these requests the node can still take; a resource the pod does not ask for does not limit. */
    static int podsThatFit(NodeState node, Map<String, Long> requests) {
        long fit = Integer.MAX_VALUE;
        for (var request : requests.entrySet()) {
            if (request.getValue() <= 0) continue;
            long free = node.free(request.getKey());
            fit = Math.min(fit, free <= 0 ? 0 : free / request.getValue());
        }
        return (int) Math.max(0, fit);
    }

    private void fillCounts(TopologyDomain domain, int sliceLevel, int sliceSize) {
        if (domain.isLeaf()) {
            if (domain.level == sliceLevel) domain.sliceCount = domain.podCount / sliceSize;
            return;
        }
        int pods = 0;
        int slices = 0;
        for (TopologyDomain child : domain.children) {
            fillCounts(child, sliceLevel, sliceSize);
            pods = saturatingAdd(pods, child.podCount);
            slices = saturatingAdd(slices, child.sliceCount);
        }
        domain.podCount = pods;
        domain.sliceCount = domain.level == sliceLevel ? pods / sliceSize : slices;
    }

    private void sortChildren(TopologyDomain domain) {
        domain.children.sort(Comparator.comparing(d -> d.values.get(d.values.size() - 1)));
        for (TopologyDomain child : domain.children) sortChildren(child);
    }

    private static int saturatingAdd(int a, int b) {
        long sum = (long) a + b;
        return sum > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) sum;
    }
}
