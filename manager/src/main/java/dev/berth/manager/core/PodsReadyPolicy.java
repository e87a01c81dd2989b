package dev.berth.manager.core;

import java.time.Duration;

/**
 * Kueue's Configuration {@code waitForPodsReady}: whether the manager tracks the PodsReady condition
 * of admitted workloads; how long an admitted workload may take until all its pods are ready
 * (timeout) and how long one that was ready may stay not ready (recoveryTimeout, null: forever)
 * before it is evicted with reason PodsReadyTimeout; whether nothing else is admitted while an
 * admitted workload's pods are not all ready (blockAdmission); and how an evicted workload is
 * requeued. {@link #DISABLED} (Kueue without waitForPodsReady) is the default.
 */
public record PodsReadyPolicy(boolean enable, Duration timeout, boolean blockAdmission, Duration recoveryTimeout,
                              RequeuingStrategy requeuingStrategy) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    public static final PodsReadyPolicy DISABLED = new PodsReadyPolicy(false, DEFAULT_TIMEOUT, false, null, RequeuingStrategy.DEFAULTS);

    public PodsReadyPolicy {
        if (timeout == null) timeout = DEFAULT_TIMEOUT;
        if (timeout.isNegative()) throw new IllegalArgumentException("waitForPodsReady.timeout must not be negative");
        if (recoveryTimeout != null && recoveryTimeout.isNegative()) {
            throw new IllegalArgumentException("waitForPodsReady.recoveryTimeout must not be negative");
        }
        if (requeuingStrategy == null) requeuingStrategy = RequeuingStrategy.DEFAULTS;
    }

    /** Enabled with Kueue's defaults otherwise: timeout 5m, no blockAdmission, no recoveryTimeout, unlimited requeues. */
    public static PodsReadyPolicy enabled(Duration timeout) {
        return new PodsReadyPolicy(true, timeout, false, null, RequeuingStrategy.DEFAULTS);
    }

    public PodsReadyPolicy withBlockAdmission(boolean block) {
        return new PodsReadyPolicy(enable, timeout, block, recoveryTimeout, requeuingStrategy);
    }

    public PodsReadyPolicy withRecoveryTimeout(Duration recovery) {
        return new PodsReadyPolicy(enable, timeout, blockAdmission, recovery, requeuingStrategy);
    }

    public PodsReadyPolicy withRequeuingStrategy(RequeuingStrategy strategy) {
        return new PodsReadyPolicy(enable, timeout, blockAdmission, recoveryTimeout, strategy);
    }

    /** Whether blockAdmission is in force (it needs waitForPodsReady enabled). */
    boolean blocks() {
        return enable && blockAdmission;
    }

    /**
     * Kueue's waitForPodsReady.requeuingStrategy: which time orders a workload in its queue after a
     * PodsReadyTimeout eviction, the number of such requeues after which it is deactivated (null:
     * no limit), and the backoff before it is queued again: base * 2^(n-1) seconds for the n-th
     * requeue, at most backoffMaxSeconds.
     */
    public record RequeuingStrategy(Timestamp timestamp, Integer backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds) {
        public static final int DEFAULT_BACKOFF_BASE_SECONDS = 60;
        public static final int DEFAULT_BACKOFF_MAX_SECONDS = 3600;
        public static final RequeuingStrategy DEFAULTS = new RequeuingStrategy(Timestamp.EVICTION, null,
                DEFAULT_BACKOFF_BASE_SECONDS, DEFAULT_BACKOFF_MAX_SECONDS);

        public RequeuingStrategy {
            if (timestamp == null) timestamp = Timestamp.EVICTION;
            if (backoffLimitCount != null && backoffLimitCount < 0) {
                throw new IllegalArgumentException("waitForPodsReady.requeuingStrategy.backoffLimitCount must not be negative");
            }
            if (backoffBaseSeconds < 0) throw new IllegalArgumentException("waitForPodsReady.requeuingStrategy.backoffBaseSeconds must not be negative");
            if (backoffMaxSeconds < 0) throw new IllegalArgumentException("waitForPodsReady.requeuingStrategy.backoffMaxSeconds must not be negative");
        }
    }

    /** Kueue's requeuingStrategy.timestamp. */
    public enum Timestamp {
        /** Ordered by the time of the PodsReadyTimeout eviction (Kueue's default): it goes behind the others. */
        EVICTION("Eviction"),
        /** Ordered by the workload's creation time: it keeps its place. */
        CREATION("Creation");

        private final String wireName;

        Timestamp(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
