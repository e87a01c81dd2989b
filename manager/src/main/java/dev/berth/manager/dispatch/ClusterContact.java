package dev.berth.manager.dispatch;

import java.time.Instant;

/**
 * What the manager observed of one worker cluster: its breaker, when a call to it last succeeded
 * (null: never), whether the latest call failed (and why), and when the agent last renewed its
 * heartbeat Lease (null: never seen).
 */
public record ClusterContact(BreakerState breaker, Instant lastSuccess, boolean lastCallFailed, String lastError,
                             Instant lastHeartbeat, Instant connectedAt) {
}
