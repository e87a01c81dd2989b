package dev.berth.manager.controller;

import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.InFlightDispatches;
import dev.berth.manager.dispatch.PlacementRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The clusters as placement sees them (in-flight dispatches taken off), kept from one workload to the
 * next of a reconcile round while the round only places workloads or finds it cannot: a placement's
 * demand is taken off the views it used, and nothing else changes what the next workload sees. A round
 * placing or re-placing hundreds of workloads so scans the current attempts once per cluster, not once
 * per workload and cluster (the state thread's largest CPU cost under a create burst, issue 16).
 * State thread only.
 */
final class RoundViews {
    private final Map<String, ClusterView> views = new HashMap<>();
    private boolean reusable;

    /** Before each workload: the views are dropped unless the previous workload left them valid. */
    void nextWorkload() {
        if (!reusable) views.clear();
        reusable = false;
    }

    /** The previous workload was not placed and changed no attempt: its views hold for the next. */
    void unchanged() {
        reusable = true;
    }

    /**
     * A workload was just placed on these clusters, and nothing else changed: its demand comes off their
     * kept views, as {@link #withoutInFlight} would take it off a fresh one (it was dispatched after their
     * last report). A request with a topology drops the views instead (its domain depends on the order).
     */
    void placed(PlacementRequest request, Collection<String> clusters) {
        if (request.podSets().stream().anyMatch(podSet -> podSet.topology() != null)) {
            reset();
            return;
        }
        for (String cluster : clusters) views.computeIfPresent(cluster, (name, view) -> InFlightDispatches.withoutInFlight(view, List.of(request)));
        reusable = true;
    }

    /** A new round, or the end of one: anything may have changed. */
    void reset() {
        views.clear();
        reusable = false;
    }

    ClusterView view(String cluster, Function<String, ClusterView> compute) {
        return views.computeIfAbsent(cluster, compute);
    }

    /**
     * The cluster as placement sees it: what was dispatched there since its last report could include it
     * ({@link DispatchController#REPORT_LAG}), and the copies still stopping there, taken off its free capacity.
     */
    static ClusterView withoutInFlight(ClusterView view, Collection<DispatchAttempt> attempts, List<PlacementRequest> stopping) {
        List<PlacementRequest> inFlight = new ArrayList<>();
        for (DispatchAttempt attempt : attempts) {
            if (attempt.request() == null || attempt.dispatchedAt() == null || !attempt.clusters().contains(view.name())) continue;
            if (view.lastHeartbeat() == null || view.lastHeartbeat().isBefore(attempt.dispatchedAt().plus(DispatchController.REPORT_LAG))) {
                inFlight.add(attempt.request());
            }
        }
        inFlight.addAll(stopping);
        return InFlightDispatches.withoutInFlight(view, inFlight);
    }
}
