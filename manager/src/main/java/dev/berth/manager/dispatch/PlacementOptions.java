package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * Knobs of placement: how old an agent heartbeat may be before its cluster is skipped, how long a
 * round of the Incremental strategy lasts while no copy is committed (Kueue's round timeout, 5 min), the
 * strategy of a MultiKueueConfig without the berth.dev/dispatch-strategy annotation (Kueue's
 * multiKueue.dispatcherName), and how many clusters each Incremental round adds (Kueue's
 * multiKueue.incrementalDispatcherConfig.stepSize, default 3).
 */
public record PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval, DispatchStrategy defaultStrategy,
                               int incrementalStep) {
    /** Kueue's Incremental dispatcher nominates 3 more clusters per round. */
    public static final int DEFAULT_INCREMENTAL_STEP = 3;
    public static final PlacementOptions DEFAULTS = new PlacementOptions(Duration.ofSeconds(30), Duration.ofMinutes(5));

    public PlacementOptions {
        if (incrementalStep < 1) throw new IllegalArgumentException("incrementalStep must be at least 1, got " + incrementalStep);
    }

    public PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval, DispatchStrategy defaultStrategy) {
        this(heartbeatStaleAfter, incrementalInterval, defaultStrategy, DEFAULT_INCREMENTAL_STEP);
    }

    public PlacementOptions(Duration heartbeatStaleAfter, Duration incrementalInterval) {
        this(heartbeatStaleAfter, incrementalInterval, DispatchStrategy.DEFAULT);
    }

    public PlacementOptions withDefaultStrategy(DispatchStrategy strategy) {
        return new PlacementOptions(heartbeatStaleAfter, incrementalInterval, strategy, incrementalStep);
    }

    public PlacementOptions withIncrementalStep(int step) {
        return new PlacementOptions(heartbeatStaleAfter, incrementalInterval, defaultStrategy, step);
    }

    /** The strategy a MultiKueueConfig's annotation names, or the default when it names none. */
    public DispatchStrategy strategyFor(String annotation) {
        return annotation == null || annotation.isBlank() ? defaultStrategy : DispatchStrategy.parse(annotation);
    }
}
