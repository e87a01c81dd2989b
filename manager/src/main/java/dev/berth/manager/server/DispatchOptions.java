package dev.berth.manager.server;

import dev.berth.manager.dispatch.PlacementOptions;
import java.time.Duration;

/**
 * Dispatch knobs: the manager's identity on worker clusters (label berth.dev/origin), the dispatch
 * lease, how often worker clusters are polled (heartbeat, capacity, attempts; stale attempts are
 * garbage-collected on each listing), and placement's own options.
 */
public record DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement) {
    public static final DispatchOptions DEFAULTS = new DispatchOptions("berth-manager", Duration.ofSeconds(60),
            Duration.ofSeconds(1), PlacementOptions.DEFAULTS);
}
