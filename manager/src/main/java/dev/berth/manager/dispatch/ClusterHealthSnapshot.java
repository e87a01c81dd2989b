package dev.berth.manager.dispatch;

import java.time.Instant;

/**
 * One worker cluster's health as metrics and views see it: gauge health, breaker state, last
 * heartbeat (null: none yet), since when it is lost (null: not lost) and whether it is cordoned.
 */
public record ClusterHealthSnapshot(String name, ClusterHealth health, String message, BreakerState breakerState,
                                    Instant lastHeartbeat, Instant lostSince, boolean cordoned, boolean draining) {
}
