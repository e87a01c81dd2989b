package dev.berth.manager.explain;

import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Layer 2, dispatch: for a workload holding quota behind a MultiKueue admission check, which
 * clusters the last placement considered and why each was rejected, or where it was dispatched.
 */
final class DispatchLayer {
    private DispatchLayer() {}

    static Layer of(boolean holdsQuota, DispatchFacts facts) {
        if (!holdsQuota) return Layer.notReached(Layers.DISPATCH, "Not dispatched: the workload holds no quota.");
        if (facts.check() == null) {
            return Layer.ok(Layers.DISPATCH, Reasons.NO_DISPATCH_NEEDED,
                    "The ClusterQueue has no MultiKueue admission check: nothing to dispatch.", Map.of());
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("admissionCheck", facts.check().name());
        details.put("checkState", facts.check().state());
        if (facts.check().message() != null) details.put("checkMessage", facts.check().message());
        PlacementDecision placement = facts.lastPlacement();
        if (placement != null) details.put("clusters", clusters(placement));
        Map<String, Object> topology = placement == null ? null : TopologyDetails.of(placement);
        if (topology != null) details.put("topology", topology);
        RemoteAttempt attempt = facts.attempt();
        if (attempt != null && attempt.attemptId() != null) {
            details.put("cluster", attempt.cluster());
            details.put("attemptId", attempt.attemptId());
            return Layer.ok(Layers.DISPATCH, Reasons.DISPATCHED,
                    "Dispatched to cluster " + attempt.cluster() + " (attempt " + attempt.attemptId() + ").", details);
        }
        if (CheckStates.RETRY.equals(facts.check().state()) || CheckStates.REJECTED.equals(facts.check().state())) {
            return Layer.blocked(Layers.DISPATCH, Reasons.ADMISSION_CHECK_FAILED, "Admission check " + facts.check().name()
                    + " is " + facts.check().state() + ": " + facts.check().message() + ".", details);
        }
        if (placement != null && !placement.placed()) {
            String message = placement.rejections().isEmpty() ? "No worker cluster is configured for the workload."
                    : "No worker cluster can start the workload now: " + (topology != null && topology.containsKey("summary")
                    ? topology.get("summary") + "; " : "") + String.join("; ", placement.rejections().entrySet().stream()
                    .map(e -> e.getKey() + ": " + e.getValue()).toList()) + ".";
            return Layer.blocked(Layers.DISPATCH, Reasons.NO_CLUSTER_AVAILABLE, message, details);
        }
        String message = facts.check().message() == null || facts.check().message().isBlank()
                ? "Waiting for the dispatcher to place the workload."
                : "Waiting for dispatch: " + facts.check().message() + ".";
        return Layer.waiting(Layers.DISPATCH, Reasons.NOT_DISPATCHED_YET, message, details);
    }

    private static List<Map<String, Object>> clusters(PlacementDecision placement) {
        List<Map<String, Object>> clusters = new ArrayList<>();
        for (String chosen : placement.clusters()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", chosen);
            c.put("chosen", true);
            clusters.add(c);
        }
        placement.rejections().forEach((name, why) -> {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", name);
            c.put("chosen", false);
            c.put("reason", ClusterRejection.reasonOf(placement.reasons().get(name), why));
            c.put("message", why);
            clusters.add(c);
        });
        return clusters;
    }
}
