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

    /**
     * Checked when the configuration loads: the manager renews every lease/3, and a renewal that fails
     * transiently is retried (resilience4j, then again at the next poll) for up to retryBudget; all of
     * that must fit in what is left of the lease after one renewal interval, or a brief blip of slow
     * answers expires a lease and stops a healthy workload.
     */
    public void validateRenewal(Duration leaseDuration, Duration renewEvery, Duration retryBudget) {
        if (renewEvery.plus(retryBudget).compareTo(leaseDuration) >= 0) {
            throw new IllegalArgumentException("a lease renewal may take up to " + millis(retryBudget)
                    + " (retry-attempts x call-timeout plus backoff), which must be shorter than lease-duration (" + millis(leaseDuration)
                    + ") minus the renewal interval (" + millis(renewEvery) + "): lengthen lease-duration or shorten call-timeout or"
                    + " retry-attempts");
        }
    }

    private static String millis(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }
}
