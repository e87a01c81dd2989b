package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * How long a workload may hold quota in a flavor that no connected worker cluster offers before its
 * MultiKueue check turns Retry (its quota released), and the first wait before it is queued again
 * after such a Retry (doubled for each later Retry of the same check, at most 30 minutes: Kueue's
 * admission-check backoff).
 *
 * <p>The default of 5 minutes is Kueue's waitForPodsReady timeout, the other Kueue rule that takes
 * quota back from a workload that holds it without running. It is shorter than Kueue's MultiKueue
 * workerLostTimeout (15 minutes) on purpose: that one guards work that may be running on a cluster
 * that comes back, while here nothing runs anywhere, so releasing early costs only a requeue.
 */
public record UnservedFlavorOptions(Duration timeout, Duration retryBackoff) {
    public static final UnservedFlavorOptions DEFAULTS = new UnservedFlavorOptions(Duration.ofMinutes(5), Duration.ofSeconds(60));
    /** Kueue's backoffMaxSeconds for admission-check retries. */
    public static final Duration MAX_RETRY_BACKOFF = Duration.ofMinutes(30);

    public UnservedFlavorOptions {
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("unserved-flavor-timeout must be positive, was " + timeout);
        if (retryBackoff.isNegative() || retryBackoff.isZero()) {
            throw new IllegalArgumentException("unserved-flavor-retry-backoff must be positive, was " + retryBackoff);
        }
    }

    /** The wait before the workload is queued again after its n-th Retry for an unserved flavor (1 for the first). */
    public int requeueAfterSeconds(int retryNumber) {
        long seconds = Math.max(1, retryBackoff.toSeconds());
        for (int i = 1; i < retryNumber && seconds < MAX_RETRY_BACKOFF.toSeconds(); i++) seconds *= 2;
        return (int) Math.min(seconds, MAX_RETRY_BACKOFF.toSeconds());
    }
}
