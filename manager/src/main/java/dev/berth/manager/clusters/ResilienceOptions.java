package dev.berth.manager.clusters;

import java.time.Duration;

/**
 * Per-cluster resilience4j settings for every call to a worker cluster.
 *
 * @param callTimeout          TimeLimiter: a call that has not answered by then fails (and counts against the breaker)
 * @param retryAttempts        Retry: attempts in all, for timeouts, I/O errors and 5xx/429 answers (never other 4xx)
 * @param retryBackoff         Retry: the first wait; each further wait doubles
 * @param failureRatePercent   CircuitBreaker: the failure rate over the window that opens it
 * @param slidingWindowCalls   CircuitBreaker: how many recent calls the failure rate is computed over
 * @param openFor              CircuitBreaker: how long it stays open before letting probe calls through (half-open)
 * @param maxConcurrentCalls   Bulkhead: calls in flight to one cluster at most (each on the cluster's own threads);
 *                             further calls fail at once instead of queueing
 */
public record ResilienceOptions(Duration callTimeout, int retryAttempts, Duration retryBackoff, float failureRatePercent,
                                int slidingWindowCalls, Duration openFor, int maxConcurrentCalls) {
    public static final ResilienceOptions DEFAULTS = new ResilienceOptions(Duration.ofSeconds(5), 3, Duration.ofMillis(200), 50f,
            10, Duration.ofSeconds(10), 8);

    public ResilienceOptions {
        if (callTimeout.isNegative() || callTimeout.isZero()) throw new IllegalArgumentException("callTimeout must be positive");
        if (retryAttempts < 1) throw new IllegalArgumentException("retryAttempts must be at least 1");
        if (failureRatePercent <= 0 || failureRatePercent > 100) throw new IllegalArgumentException("failureRatePercent must be in (0, 100]");
        if (slidingWindowCalls < 1) throw new IllegalArgumentException("slidingWindowCalls must be at least 1");
        if (maxConcurrentCalls < 1) throw new IllegalArgumentException("maxConcurrentCalls must be at least 1");
    }

    /** The longest one guarded call may take in all: every attempt timing out, plus the waits between them. */
    public Duration retryBudget() {
        Duration budget = callTimeout.multipliedBy(retryAttempts);
        Duration wait = retryBackoff;
        for (int i = 1; i < retryAttempts; i++) {
            budget = budget.plus(wait);
            wait = wait.multipliedBy(2);
        }
        return budget;
    }
}
