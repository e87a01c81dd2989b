package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.PlacementDecision;

/**
 * What the dispatcher knows of one workload: its MultiKueue admission check (null: the ClusterQueue
 * has none), the last placement decision (null: never placed), and the current remote attempt
 * (null: none).
 */
public record DispatchFacts(AdmissionCheckState check, PlacementDecision lastPlacement, RemoteAttempt attempt) {
    public static final DispatchFacts NONE = new DispatchFacts(null, null, null);
}
