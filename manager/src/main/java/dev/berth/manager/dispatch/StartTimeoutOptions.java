package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * How long a dispatched copy may wait unstarted on a worker cluster before it is withdrawn and the
 * workload placed elsewhere (startTimeout; zero turns withdrawal off), and how long a workload then
 * keeps away from the cluster it was withdrawn from (avoidFor), so it does not bounce straight back.
 * The default of 5 minutes follows Kueue's MultiKueue dispatcher, which waits 5 minutes per round
 * before it tries more worker clusters.
 */
public record StartTimeoutOptions(Duration startTimeout, Duration avoidFor) {
    public static final StartTimeoutOptions DEFAULTS = new StartTimeoutOptions(Duration.ofMinutes(5), Duration.ofMinutes(10));

    public StartTimeoutOptions {
        if (startTimeout.isNegative()) throw new IllegalArgumentException("dispatch-start-timeout must not be negative, got " + startTimeout);
        if (avoidFor.isNegative()) throw new IllegalArgumentException("withdrawn-cluster-avoid-for must not be negative, got " + avoidFor);
    }

    public boolean enabled() {
        return !startTimeout.isZero();
    }
}
