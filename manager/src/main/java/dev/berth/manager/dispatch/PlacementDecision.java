package dev.berth.manager.dispatch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where a workload goes: the chosen clusters (empty: nowhere now), and for each cluster that was
 * considered and not chosen, why, in words a person can act on ({@link #rejections()}) and as a
 * code ({@link #reasons()}).
 */
public record PlacementDecision(List<String> clusters, Map<String, String> rejections, Map<String, RejectionReason> reasons) {
    public PlacementDecision {
        clusters = List.copyOf(clusters);
        rejections = Collections.unmodifiableMap(new LinkedHashMap<>(rejections));
        reasons = Collections.unmodifiableMap(new LinkedHashMap<>(reasons));
    }

    public PlacementDecision(List<String> clusters, Map<String, String> rejections) {
        this(clusters, rejections, Map.of());
    }

    public boolean placed() {
        return !clusters.isEmpty();
    }

    /** The pending message: "no worker cluster can start the workload now: a: reason; b: reason". */
    public String pendingMessage() {
        if (rejections.isEmpty()) return "no worker cluster can start the workload now: no worker clusters configured";
        StringJoiner joined = new StringJoiner("; ");
        rejections.forEach((cluster, reason) -> joined.add(cluster + ": " + reason));
        return "no worker cluster can start the workload now: " + joined;
    }
}
