package dev.berth.manager.dispatch;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.Quantity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses worker clusters for a workload that holds quota. Pure: the only input besides its
 * arguments is the injected clock (heartbeat age, the Incremental interval).
 */
public final class PlacementPolicy {
    private final Clock clock;
    private final PlacementOptions options;

    public PlacementPolicy(Clock clock, PlacementOptions options) {
        this.clock = clock;
        this.options = options;
    }

    /**
     * @param clusters           the clusters of the workload's MultiKueueConfig, in the config's order
     * @param firstDispatchOrNull when the Incremental strategy first dispatched this attempt; null before
     */
    public PlacementDecision place(PlacementRequest request, List<ClusterView> clusters, DispatchStrategy strategy,
                                   Instant firstDispatchOrNull) {
        return place(request, clusters, strategy, firstDispatchOrNull, List.of());
    }

    /** @param nominated for EXTERNAL: the Workload's status.nominatedClusterNames, set by an outside controller */
    public PlacementDecision place(PlacementRequest request, List<ClusterView> clusters, DispatchStrategy strategy,
                                   Instant firstDispatchOrNull, List<String> nominated) {
        Map<String, String> rejections = new LinkedHashMap<>();
        Map<String, RejectionReason> reasons = new LinkedHashMap<>();
        List<ClusterView> eligible = new ArrayList<>();
        for (ClusterView cluster : clusters) {
            Rejection rejection = ineligibility(request, cluster);
            if (rejection == null) {
                eligible.add(cluster);
            } else {
                rejections.put(cluster.name(), rejection.message());
                reasons.put(cluster.name(), rejection.reason());
            }
        }
        PlacementDecision decision = switch (strategy) {
            case DEFAULT -> capacityAware(request, eligible, rejections, reasons);
            case ALL_AT_ONCE -> new PlacementDecision(eligible.stream().map(ClusterView::name).toList(), rejections, reasons);
            case INCREMENTAL -> incremental(eligible, rejections, reasons, firstDispatchOrNull);
            case EXTERNAL -> external(eligible, rejections, reasons, nominated);
        };
        return inConfigOrder(decision, clusters);
    }

    private static PlacementDecision inConfigOrder(PlacementDecision decision, List<ClusterView> clusters) {
        Map<String, String> ordered = new LinkedHashMap<>();
        Map<String, RejectionReason> orderedReasons = new LinkedHashMap<>();
        for (ClusterView cluster : clusters) {
            String message = decision.rejections().get(cluster.name());
            if (message != null) ordered.put(cluster.name(), message);
            RejectionReason reason = decision.reasons().get(cluster.name());
            if (reason != null) orderedReasons.put(cluster.name(), reason);
        }
        Map<String, List<TopologyShortfall>> shortfalls = new LinkedHashMap<>();
        for (ClusterView cluster : clusters) {
            List<TopologyShortfall> of = decision.shortfalls().get(cluster.name());
            if (of != null) shortfalls.put(cluster.name(), of);
        }
        return new PlacementDecision(decision.clusters(), ordered, orderedReasons, decision.domains(), shortfalls);
    }

    private record Rejection(RejectionReason reason, String message) {
    }

    /** Why a cluster cannot take the workload at all (capacity aside), or null. */
    private Rejection ineligibility(PlacementRequest request, ClusterView cluster) {
        if (cluster.cordoned()) return new Rejection(RejectionReason.CORDONED, "cordoned");
        if (cluster.breaker() == BreakerState.OPEN) return new Rejection(RejectionReason.BREAKER_OPEN, "circuit breaker open: API calls failing");
        if (!cluster.connected()) return new Rejection(RejectionReason.NOT_CONNECTED, "not connected");
        if (cluster.health() != null && cluster.health() != ClusterHealth.HEALTHY && cluster.health() != ClusterHealth.DEGRADED) {
            return new Rejection(RejectionReason.UNHEALTHY, "unhealthy: " + cluster.health().reason());
        }
        if (cluster.lastHeartbeat() == null) return new Rejection(RejectionReason.NO_HEARTBEAT, "no agent heartbeat yet");
        Duration age = Duration.between(cluster.lastHeartbeat(), clock.instant());
        if (age.compareTo(options.heartbeatStaleAfter()) > 0) {
            return new Rejection(RejectionReason.HEARTBEAT_STALE, "heartbeat stale for " + age.toSeconds() + "s");
        }
        for (String flavor : request.flavors()) {
            if (!cluster.flavors().containsKey(flavor)) return new Rejection(RejectionReason.FLAVOR_MISSING, "flavor " + flavor + " missing");
        }
        return null;
    }

    private PlacementDecision capacityAware(PlacementRequest request, List<ClusterView> eligible, Map<String, String> rejections,
                                            Map<String, RejectionReason> reasons) {
        if (TopologyPlacement.requested(request)) return topologyAware(request, eligible, rejections, reasons);
        List<ClusterView> fitting = new ArrayList<>();
        for (ClusterView cluster : eligible) {
            String shortfall = shortfall(request, cluster);
            if (shortfall == null) {
                fitting.add(cluster);
            } else {
                rejections.put(cluster.name(), "no capacity: " + shortfall);
                reasons.put(cluster.name(), RejectionReason.NO_CAPACITY);
            }
        }
        if (fitting.isEmpty()) return new PlacementDecision(List.of(), rejections, reasons);
        return new PlacementDecision(List.of(mostRoomLeft(request, fitting).name()), rejections, reasons);
    }

    private static ClusterView mostRoomLeft(PlacementRequest request, List<ClusterView> fitting) {
        String[] scarcest = scarcest(request, fitting);
        Map<String, Map<String, Long>> demand = request.totalByFlavor();
        return fitting.stream()
                .max(Comparator.comparingLong((ClusterView c) -> freeAfter(c, demand, scarcest))
                        .thenComparing(ClusterView::name, Comparator.reverseOrder()))
                .orElseThrow();
    }

    /**
     * Only clusters where a domain holds every pod set that asks for one; of those the tightest fit
     * (fewest levels above the requested ones, then least room to spare), then as without topology.
     */
    private static PlacementDecision topologyAware(PlacementRequest request, List<ClusterView> eligible, Map<String, String> rejections,
                                                   Map<String, RejectionReason> reasons) {
        Map<String, TopologyPlacement.ClusterFit> fits = new LinkedHashMap<>();
        Map<String, List<TopologyShortfall>> shortfalls = new LinkedHashMap<>();
        List<ClusterView> holding = new ArrayList<>();
        for (ClusterView cluster : eligible) {
            TopologyPlacement.ClusterFit fit = TopologyPlacement.on(request, cluster);
            String shortfall = shortfall(request, cluster);
            if (shortfall != null) {
                // the numbers of the best domain still help explain, even when the flavor as a whole is short
                rejections.put(cluster.name(), "no capacity: " + (fit.fits() || fit.shortfalls().isEmpty() ? shortfall : fit.rejection()));
                reasons.put(cluster.name(), RejectionReason.NO_CAPACITY);
                if (!fit.shortfalls().isEmpty()) shortfalls.put(cluster.name(), fit.shortfalls());
            } else if (fit.fits()) {
                fits.put(cluster.name(), fit);
                holding.add(cluster);
            } else {
                rejections.put(cluster.name(), "no capacity: " + fit.rejection());
                reasons.put(cluster.name(), RejectionReason.NO_CAPACITY);
                if (!fit.shortfalls().isEmpty()) shortfalls.put(cluster.name(), fit.shortfalls());
            }
        }
        if (holding.isEmpty()) return new PlacementDecision(List.of(), rejections, reasons, Map.of(), shortfalls);
        TopologyPlacement.ClusterFit tightest = fits.values().stream().min(TopologyPlacement.tightestFirst()).orElseThrow();
        List<ClusterView> tied = holding.stream()
                .filter(c -> TopologyPlacement.tightestFirst().compare(fits.get(c.name()), tightest) == 0).toList();
        String chosen = mostRoomLeft(request, tied).name();
        return new PlacementDecision(List.of(chosen), rejections, reasons, Map.of(chosen, fits.get(chosen).choices()), shortfalls);
    }

    /** What the cluster lacks to start the whole workload now, or null when it fits. */
    private static String shortfall(PlacementRequest request, ClusterView cluster) {
        for (Map.Entry<String, Map<String, Long>> flavor : request.totalByFlavor().entrySet()) {
            FlavorCapacity capacity = cluster.flavors().get(flavor.getKey());
            for (Map.Entry<String, Long> total : flavor.getValue().entrySet()) {
                String resource = total.getKey();
                long free = capacity.free(resource);
                if (total.getValue() > free) {
                    return "insufficient " + resource + ": " + Quantity.format(resource, total.getValue()) + " requested, "
                            + Quantity.format(resource, free) + " free";
                }
            }
        }
        for (PodSetDemand podSet : request.podSets()) {
            for (Map.Entry<String, Long> perPod : podSet.perPodRequests().entrySet()) {
                String resource = perPod.getKey();
                String flavor = podSet.flavors().get(resource);
                if (flavor == null) continue;
                long largest = cluster.flavors().get(flavor).largestOnOneNode(resource);
                if (perPod.getValue() > largest) {
                    return "no node has " + Quantity.format(resource, perPod.getValue()) + " " + resource
                            + " free for one pod of " + podSet.name() + " (largest free on one node: "
                            + Quantity.format(resource, largest) + ")";
                }
            }
        }
        return null;
    }

    /** The requested flavor/resource whose demand takes the largest share of what the fitting clusters have free. */
    private static String[] scarcest(PlacementRequest request, List<ClusterView> fitting) {
        String[] scarcest = null;
        double worst = -1;
        for (Map.Entry<String, Map<String, Long>> flavor : request.totalByFlavor().entrySet()) {
            for (Map.Entry<String, Long> total : flavor.getValue().entrySet()) {
                long freeEverywhere = 0;
                for (ClusterView cluster : fitting) freeEverywhere = Amounts.add(freeEverywhere, cluster.flavors().get(flavor.getKey()).free(total.getKey()));
                double share = freeEverywhere == 0 ? Double.MAX_VALUE : (double) total.getValue() / freeEverywhere;
                if (share > worst) {
                    worst = share;
                    scarcest = new String[] {flavor.getKey(), total.getKey()};
                }
            }
        }
        return scarcest;
    }

    private static long freeAfter(ClusterView cluster, Map<String, Map<String, Long>> demand, String[] scarcest) {
        if (scarcest == null) return 0;
        long free = cluster.flavors().get(scarcest[0]).free(scarcest[1]);
        return free - demand.get(scarcest[0]).get(scarcest[1]);
    }

    private static PlacementDecision external(List<ClusterView> eligible, Map<String, String> rejections,
                                              Map<String, RejectionReason> reasons, List<String> nominated) {
        List<String> chosen = new ArrayList<>();
        for (ClusterView cluster : eligible) {
            if (nominated.contains(cluster.name())) {
                chosen.add(cluster.name());
            } else {
                rejections.put(cluster.name(), "not nominated: an external controller sets status.nominatedClusterNames");
                reasons.put(cluster.name(), RejectionReason.NOT_YET);
            }
        }
        return new PlacementDecision(chosen, rejections, reasons);
    }

    private PlacementDecision incremental(List<ClusterView> eligible, Map<String, String> rejections, Map<String, RejectionReason> reasons,
                                          Instant firstDispatchOrNull) {
        long rounds = 1;
        if (firstDispatchOrNull != null) {
            Duration waited = Duration.between(firstDispatchOrNull, clock.instant());
            rounds += Math.max(0, waited.toMillis() / Math.max(1, options.incrementalInterval().toMillis()));
        }
        // Kueue's Incremental dispatcher: a round nominates `step` more clusters; a round lasts incrementalInterval
        int count = (int) Math.min(eligible.size(), rounds * options.incrementalStep());
        Map<String, String> notYet = new LinkedHashMap<>(rejections);
        Map<String, RejectionReason> notYetReasons = new LinkedHashMap<>(reasons);
        for (ClusterView later : eligible.subList(count, eligible.size())) {
            notYet.put(later.name(), "not yet: incremental dispatch");
            notYetReasons.put(later.name(), RejectionReason.NOT_YET);
        }
        return new PlacementDecision(eligible.subList(0, count).stream().map(ClusterView::name).toList(), notYet, notYetReasons);
    }
}
