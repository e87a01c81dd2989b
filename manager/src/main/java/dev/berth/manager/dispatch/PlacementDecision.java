package dev.berth.manager.dispatch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where a workload goes: the chosen clusters (empty: nowhere now), and for each cluster that was
 * considered and not chosen, why, in words a person can act on ({@link #rejections()}) and as a
 * code ({@link #reasons()}). For pod sets with a topology request: the domain chosen on each chosen
 * cluster ({@link #domains()}), and per cluster that no domain fits, the numbers ({@link #shortfalls()}).
 */
public record PlacementDecision(List<String> clusters, Map<String, String> rejections, Map<String, RejectionReason> reasons,
                                Map<String, List<DomainChoice>> domains, Map<String, List<TopologyShortfall>> shortfalls) {
    public PlacementDecision {
        clusters = List.copyOf(clusters);
        rejections = Collections.unmodifiableMap(new LinkedHashMap<>(rejections));
        reasons = Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
        domains = Collections.unmodifiableMap(new LinkedHashMap<>(domains));
        shortfalls = Collections.unmodifiableMap(new LinkedHashMap<>(shortfalls));
    }

    public PlacementDecision(List<String> clusters, Map<String, String> rejections, Map<String, RejectionReason> reasons) {
        this(clusters, rejections, reasons, Map.of(), Map.of());
    }

    public PlacementDecision(List<String> clusters, Map<String, String> rejections) {
        this(clusters, rejections, Map.of());
    }

    public boolean placed() {
        return !clusters.isEmpty();
    }

    /** The domains chosen on a cluster, one per pod set with a topology request (empty without). */
    public List<DomainChoice> domainsOn(String cluster) {
        return domains.getOrDefault(cluster, List.of());
    }

    /** The domains when one cluster was chosen; none for multi-cluster strategies, whose agents each choose their own. */
    public List<DomainChoice> singleClusterDomains() {
        return clusters.size() == 1 ? domainsOn(clusters.get(0)) : List.of();
    }

    /**
     * The pending message: "no worker cluster can start the workload now: a: reason; b: reason", led
     * by the topology summary when no domain anywhere holds a pod set ({@link TopologySummary}).
     */
    public String pendingMessage() {
        if (rejections.isEmpty()) return "no worker cluster can start the workload now: no worker clusters configured";
        StringJoiner joined = new StringJoiner("; ");
        rejections.forEach((cluster, reason) -> joined.add(cluster + ": " + reason));
        String topology = TopologySummary.of(this);
        return "no worker cluster can start the workload now: " + (topology == null ? "" : topology + "; ") + joined;
    }
}
