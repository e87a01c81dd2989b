package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * Knobs of placement: how old an agent heartbeat may be before its cluster is skipped, how
 * often the Incremental strategy adds one more cluster while none has admitted, and the strategy of a
 * MultiKueueConfig without the berth.dev/dispatch-strategy annotation (Kueue's multiKueue.dispatcherName).
 */
public record PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval, DispatchStrategy defaultStrategy) {
    public static final PlacementOptions DEFAULTS = new PlacementOptions(Duration.ofSeconds(30), Duration.ofMinutes(5));

    public PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval) {
        this(heartbeatStaleAfter, incrementalInterval, DispatchStrategy.DEFAULT);
    }

    public PlacementOptions withDefaultStrategy(DispatchStrategy strategy) {
        return new PlacementOptions(heartbeatStaleAfter, incrementalInterval, strategy);
    }

    /** The strategy a MultiKueueConfig's annotation names, or the default when it names none. */
    public DispatchStrategy strategyFor(String annotation) {
        return annotation == null || annotation.isBlank() ? defaultStrategy : DispatchStrategy.parse(annotation);
    }
}
