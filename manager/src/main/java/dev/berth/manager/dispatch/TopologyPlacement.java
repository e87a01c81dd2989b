package dev.berth.manager.dispatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The topology layer of placement: for every pod set of a workload that has a topology request, the
 * domain of one cluster's flavor it would get ({@link TopologyFit}), and how to rank clusters by it
 * (fewer levels above the requested ones, then the tightest fit: least room left over). Pure.
 */
public final class TopologyPlacement {
    private TopologyPlacement() {}

    /** One cluster's answer: the chosen domains (one per pod set with a request), or why it cannot hold them. */
    public record ClusterFit(List<DomainChoice> choices, List<TopologyShortfall> shortfalls, String rejection) {
        public ClusterFit {
            choices = List.copyOf(choices);
            shortfalls = List.copyOf(shortfalls);
        }

        public boolean fits() {
            return rejection == null;
        }

        long levelsUp() {
            return choices.stream().mapToLong(DomainChoice::levelsUp).sum();
        }

        long spare() {
            return choices.stream().mapToLong(DomainChoice::spare).sum();
        }
    }

    /** Whether any pod set of the workload asks for a topology. */
    public static boolean requested(PlacementRequest request) {
        return request.podSets().stream().anyMatch(p -> p.topology() != null);
    }

    /** The domains on one cluster, or the first pod set that no domain there holds. */
    public static ClusterFit on(PlacementRequest request, ClusterView cluster) {
        List<DomainChoice> choices = new ArrayList<>();
        for (PodSetDemand podSet : request.podSets()) {
            if (podSet.topology() == null) continue;
            String flavor = TopologyFit.flavorOf(podSet);
            FlavorCapacity capacity = flavor == null ? null : cluster.flavors().get(flavor);
            if (capacity == null) return new ClusterFit(List.of(), List.of(), "flavor " + flavor + " missing");
            TopologyFit.Outcome outcome = TopologyFit.place(podSet, capacity);
            if (!outcome.fits()) {
                return new ClusterFit(List.of(), outcome.shortfall() == null ? List.of() : List.of(outcome.shortfall()), outcome.message());
            }
            choices.add(outcome.choice());
        }
        return new ClusterFit(choices, List.of(), null);
    }

    /** Best first: fewest levels above the requested ones, then the least room to spare. */
    public static Comparator<ClusterFit> tightestFirst() {
        return Comparator.comparingLong(ClusterFit::levelsUp).thenComparingLong(ClusterFit::spare);
    }
}
