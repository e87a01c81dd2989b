package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * Failover knobs. workerLostTimeout: how long a cluster may be lost (Unreachable or AgentLost)
 * before its workloads are evicted and dispatched elsewhere (Kueue's MultiKueue default: 15 min).
 * leaseMargin: added to a dispatch lease before its copy counts as surely stopped (the agent's
 * reconcile period plus clock skew between manager and agent).
 */
public record FailoverOptions(Duration workerLostTimeout, Duration leaseMargin, HealthOptions health) {
    public static final FailoverOptions DEFAULTS = new FailoverOptions(Duration.ofMinutes(15), Duration.ofSeconds(10), HealthOptions.DEFAULTS);

    public FailoverOptions {
        if (workerLostTimeout.isNegative() || workerLostTimeout.isZero()) {
            throw new IllegalArgumentException("workerLostTimeout must be positive, got " + workerLostTimeout);
        }
        if (leaseMargin.isNegative()) throw new IllegalArgumentException("leaseMargin must not be negative, got " + leaseMargin);
    }

    /**
     * Checked when the configuration loads: an old copy must be down before a new one starts, so the
     * dispatch lease must be shorter than workerLostTimeout.
     */
    public void validateLease(Duration leaseDuration) {
        if (leaseDuration.isNegative() || leaseDuration.isZero()) {
            throw new IllegalArgumentException("dispatch lease duration must be positive, got " + leaseDuration.toSeconds() + "s");
        }
        if (leaseDuration.compareTo(workerLostTimeout) >= 0) {
            throw new IllegalArgumentException("dispatch lease duration (" + leaseDuration.toSeconds()
                    + "s) must be shorter than workerLostTimeout (" + workerLostTimeout.toSeconds()
                    + "s): otherwise a workload could be redispatched while its old copy may still run");
        }
    }
}
