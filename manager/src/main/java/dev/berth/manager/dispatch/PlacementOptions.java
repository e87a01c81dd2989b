package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * Knobs of placement: how old an agent heartbeat may be before its cluster is skipped, and how
 * often the Incremental strategy adds one more cluster while none has admitted.
 */
public record PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval) {
    public static final PlacementOptions DEFAULTS = new PlacementOptions(Duration.ofSeconds(30), Duration.ofMinutes(5));
}
