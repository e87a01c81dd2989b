package dev.berth.agent;

import dev.berth.protocol.crd.PodSetTopology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Kueue's topology assignment (pkg/cache/scheduler/tas_flavor_snapshot.go, BestFit profile, no
 * leaders) for one pod set inside the domain the manager chose:
 * <ol>
 *   <li>count how many pods (and slices) of the pod set fit in every domain ({@link TopologyTree});</li>
 *   <li>pick the domains to fill: Required takes the chosen domain or fails naming it; Preferred takes
 *       the chosen domain, or climbs to its parent, grandparent, up to the whole flavor until the pod
 *       set fits, keeping the chosen domain first when spilling; without a chosen domain, Kueue's level
 *       search (best fit at the requested level, then higher levels for Preferred); Unconstrained spreads
 *       over the nodes;</li>
 *   <li>walk down level by level, at each level filling the fewest domains: largest first, and for the
 *       last one the tightest that still holds what is left (BestFit). Above the slice level whole
 *       slices are placed; at and below it, single pods.</li>
 * </ol>
 */
public final class TopologyAssigner {
    static final String REQUIRED = "Required";
    static final String PREFERRED = "Preferred";
    static final String UNCONSTRAINED = "Unconstrained";

    private TopologyAssigner() {}

    /** The placement of the pod set on this snapshot, or why it does not fit (naming the domain). */
    public static TopologyPlacement.Result assign(ClusterSnapshot snapshot, PodDemand demand) {
        PodSetTopology request = demand.topology();
        List<String> levels = request.getLevels();
        int lowest = levels.size() - 1;
        int sliceLevel = request.getSliceLevel() == null ? lowest : levels.indexOf(request.getSliceLevel());
        int sliceSize = request.getSliceSize() == null ? 1 : request.getSliceSize();
        if (sliceLevel < 0) return failed(demand, "slice level " + request.getSliceLevel() + " is not a level of the flavor's topology");
        if (sliceSize < 1 || demand.count() % sliceSize != 0) {
            return failed(demand, demand.count() + " pods do not split into slices of " + sliceSize);
        }
        TopologyTree tree = TopologyTree.build(snapshot, demand, levels, sliceLevel, sliceSize);
        int needed = demand.count() / sliceSize;
        Optional<List<TopologyDomain>> fit;
        String mode = request.getMode() == null ? REQUIRED : request.getMode();
        List<String> chosen = request.getDomain() == null ? List.of() : request.getDomain();
        if (UNCONSTRAINED.equals(mode) && chosen.isEmpty() && sliceSize == 1) {
            fit = spread(tree.atLevel(lowest), needed, sliceSize);
            if (fit.isEmpty()) return notEnough(demand, tree.root, sliceSize, "");
            return TopologyPlacement.of(snapshot, demand, tree, fit.get());
        }
        if (UNCONSTRAINED.equals(mode) && chosen.isEmpty()) {
            if (tree.root.sliceCount < needed) return notEnough(demand, tree.root, sliceSize, "");
            return TopologyPlacement.of(snapshot, demand, tree, descend(tree, List.of(tree.root), demand.count(), sliceLevel, sliceSize));
        }
        int requestedLevel = request.getLevel() == null ? lowest : levels.indexOf(request.getLevel());
        if (requestedLevel < 0) return failed(demand, "level " + request.getLevel() + " is not a level of the flavor's topology");
        TopologyDomain start;
        if (!chosen.isEmpty()) {
            TopologyDomain domain = tree.find(chosen);
            if (REQUIRED.equals(mode)) {
                if (domain == null || domain.sliceCount < needed) return notEnough(demand, domain, chosen, sliceSize);
                start = domain;
            } else {
                start = preferredOrAncestor(tree, chosen, needed);
                if (start == null) return notEnough(demand, tree.root, sliceSize, " (preferred " + String.join("/", chosen) + ")");
            }
        } else {
            start = levelSearch(tree, requestedLevel, needed, REQUIRED.equals(mode));
            if (start == null) return noDomainFits(demand, sorted(tree.atLevel(requestedLevel)), sliceSize);
        }
        return TopologyPlacement.of(snapshot, demand, tree, descend(tree, List.of(start), demand.count(), sliceLevel, sliceSize));
    }

    /**
     * Preferred with a chosen domain: the domain if it holds the pod set, else the nearest ancestor that does.
     * The path to the domain and the domain's subtree are marked preferred, like Kueue's affinity score, so
     * a spill fills the chosen domain first.
     */
    private static TopologyDomain preferredOrAncestor(TopologyTree tree, List<String> chosen, int needed) {
        TopologyDomain current = tree.root;
        for (String value : chosen) {
            TopologyDomain child = current.child(value);
            if (child == null) break;
            current = child;
        }
        markPreferred(current);
        for (TopologyDomain ancestor = current.parent; ancestor != null; ancestor = ancestor.parent) ancestor.preferred = true;
        while (current.sliceCount < needed && current.parent != null) current = current.parent;
        return current.sliceCount >= needed ? current : null;
    }

    /** The chosen domain and everything below it sort first when the pod set spills out of it. */
    private static void markPreferred(TopologyDomain domain) {
        domain.preferred = true;
        for (TopologyDomain child : domain.children) markPreferred(child);
    }

    /** Kueue's findLevelWithFitDomains without leaders: best fit at the level; Preferred climbs; at the top, the whole flavor. */
    private static TopologyDomain levelSearch(TopologyTree tree, int level, int needed, boolean required) {
        for (int current = level; current >= 0; current--) {
            List<TopologyDomain> sorted = sorted(tree.atLevel(current));
            if (!sorted.isEmpty() && sorted.get(0).sliceCount >= needed) return bestFit(sorted, needed, true);
            if (required) return null;
        }
        return tree.root.sliceCount >= needed ? tree.root : null;
    }

    /** Unconstrained: greedily over the lowest-level domains themselves, largest first, the tightest for the rest (BestFit). */
    private static Optional<List<TopologyDomain>> spread(List<TopologyDomain> leaves, int needed, int sliceSize) {
        int total = leaves.stream().mapToInt(l -> l.podCount / sliceSize).sum();
        if (total < needed) return Optional.empty();
        return Optional.of(fillFewest(sorted(leaves), needed * sliceSize, 1, false));
    }

    /** Phase 2b: from the chosen domains down to the nodes, filling the fewest domains at each level. */
    private static List<TopologyDomain> descend(TopologyTree tree, List<TopologyDomain> start, int count, int sliceLevel, int sliceSize) {
        List<TopologyDomain> fit = fillFewest(start, count, sliceSize, true);
        int level = start.get(0).level;
        int lowest = tree.levels.size() - 1;
        for (; level < Math.min(lowest, sliceLevel); level++) {
            List<TopologyDomain> lower = new ArrayList<>();
            for (TopologyDomain domain : fit) lower.addAll(domain.children);
            fit = fillFewest(sorted(lower), count, sliceSize, true);
        }
        for (; level < lowest; level++) {
            List<TopologyDomain> next = new ArrayList<>();
            for (TopologyDomain domain : fit) next.addAll(fillFewest(sorted(domain.children), domain.podCount, 1, false));
            fit = next;
        }
        return fit;
    }

    /**
     * Kueue's updateCountsToMinimum: take domains in order until {@code count} pods (whole slices when
     * {@code slices}) are placed; the domain that completes it is the tightest one that can. Each taken
     * domain's podCount becomes what it takes.
     */
    static List<TopologyDomain> fillFewest(List<TopologyDomain> domains, int count, int sliceSize, boolean slices) {
        List<TopologyDomain> result = new ArrayList<>();
        int remaining = slices ? count / sliceSize : count;
        for (int i = 0; i < domains.size() && remaining > 0; i++) {
            TopologyDomain domain = domains.get(i);
            int capacity = slices ? domain.sliceCount : domain.podCount;
            if (capacity >= remaining) {
                domain = bestFit(domains.subList(i, domains.size()), remaining, slices);
                domain.podCount = slices ? remaining * sliceSize : remaining;
                domain.sliceCount = slices ? remaining : domain.sliceCount;
                result.add(domain);
                return result;
            }
            if (capacity == 0) continue;
            domain.podCount = slices ? capacity * sliceSize : capacity;
            remaining -= capacity;
            result.add(domain);
        }
        return result;
    }

    /** The first domain with the smallest capacity that still holds {@code needed}, among those as preferred as the first. */
    static TopologyDomain bestFit(List<TopologyDomain> domains, int needed, boolean slices) {
        TopologyDomain best = null;
        for (TopologyDomain domain : domains) {
            if (domain.preferred != domains.get(0).preferred) break;
            int capacity = slices ? domain.sliceCount : domain.podCount;
            if (capacity >= needed && (best == null || capacity < (slices ? best.sliceCount : best.podCount))) best = domain;
        }
        return best == null ? domains.get(0) : best;
    }

    /** Kueue's BestFit order: preferred path first, then most slices, then fewest pods, then by values. */
    static List<TopologyDomain> sorted(List<TopologyDomain> domains) {
        List<TopologyDomain> result = new ArrayList<>(domains);
        result.sort(Comparator.comparing((TopologyDomain d) -> !d.preferred)
                .thenComparing(Comparator.comparingInt((TopologyDomain d) -> d.sliceCount).reversed())
                .thenComparingInt(d -> d.podCount)
                .thenComparing(d -> String.join("/", d.values)));
        return result;
    }

    private static TopologyPlacement.Result failed(PodDemand demand, String why) {
        return new TopologyPlacement.NotPlaced("topology request of pod set " + demand.podSet() + " cannot be placed: " + why);
    }

    private static TopologyPlacement.Result notEnough(PodDemand demand, TopologyDomain domain, List<String> chosen, int sliceSize) {
        return notEnough(demand, domain == null ? new TopologyDomain(chosen, chosen.size() - 1, null) : domain, sliceSize,
                " (required " + demand.topology().getLevel() + ")");
    }

    private static TopologyPlacement.Result notEnough(PodDemand demand, TopologyDomain domain, int sliceSize, String suffix) {
        String room = sliceSize > 1
                ? domain.sliceCount + " of " + demand.count() / sliceSize + " slices of " + sliceSize + " pods"
                : domain.podCount + " of " + demand.count() + " pods";
        String where = domain.values.isEmpty() ? "the topology of flavor " + demand.requirement().flavor()
                : "topology domain " + domain.describe() + " of flavor " + demand.requirement().flavor();
        return new TopologyPlacement.NotPlaced(where + " has room for " + room + " of pod set " + demand.podSet() + suffix);
    }

    /** No domain at the requested level holds the pod set: says so, and names the roomiest one. */
    private static TopologyPlacement.Result noDomainFits(PodDemand demand, List<TopologyDomain> sortedAtLevel, int sliceSize) {
        String best = "";
        if (!sortedAtLevel.isEmpty()) {
            TopologyDomain roomiest = sortedAtLevel.get(0);
            best = "; best: " + roomiest.describe() + " with room for "
                    + (sliceSize > 1 ? roomiest.sliceCount + " slices of " + sliceSize + " pods" : roomiest.podCount + " pods");
        }
        return new TopologyPlacement.NotPlaced("no " + demand.topology().getLevel() + " domain of flavor " + demand.requirement().flavor()
                + " has room for the " + demand.count() + " pods of pod set " + demand.podSet() + best);
    }
}
