package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * How the dispatcher's work queue retries and resyncs (controller-runtime's defaults for the backoff).
 *
 * @param firstRetry     the wait before a failed workload is reconciled again; doubled after each failure in a row
 * @param maxRetry       the longest wait between retries
 * @param resyncInterval how often every workload that holds quota is reconciled, whether an event named it or not
 */
public record WorkQueueOptions(Duration firstRetry, Duration maxRetry, Duration resyncInterval) {
    public static final WorkQueueOptions DEFAULTS = new WorkQueueOptions(Duration.ofMillis(100), Duration.ofSeconds(30),
            Duration.ofMinutes(5));

    public WorkQueueOptions {
        if (firstRetry.isNegative() || firstRetry.isZero()) throw new IllegalArgumentException("firstRetry must be positive, was " + firstRetry);
        if (maxRetry.compareTo(firstRetry) < 0) throw new IllegalArgumentException("maxRetry " + maxRetry + " is shorter than firstRetry " + firstRetry);
        if (resyncInterval.isNegative() || resyncInterval.isZero()) {
            throw new IllegalArgumentException("resyncInterval must be positive, was " + resyncInterval);
        }
    }

    /** The wait before the next try after this many failures in a row (1 for the first): doubling, capped at {@link #maxRetry}. */
    public Duration backoff(int failures) {
        Duration wait = firstRetry;
        for (int i = 1; i < failures && wait.compareTo(maxRetry) < 0; i++) wait = wait.multipliedBy(2);
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
