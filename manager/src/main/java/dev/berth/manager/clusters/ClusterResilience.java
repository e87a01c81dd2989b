package dev.berth.manager.clusters;

import dev.berth.manager.DaemonThreads;
import dev.berth.manager.dispatch.BreakerState;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadConfig;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The resilience4j decorators of one worker cluster: Retry(CircuitBreaker(TimeLimiter(Bulkhead(call)))).
 * The bulkhead is a thread pool of the cluster's own, so a hung cluster ties up only its own threads,
 * never the Vert.x worker pool other clusters need; when full, calls fail at once.
 */
final class ClusterResilience implements AutoCloseable {
    private final CircuitBreaker breaker;
    private final TimeLimiter timeLimiter;
    private final Retry retry;
    private final ThreadPoolBulkhead bulkhead;
    private final ScheduledExecutorService scheduler;

    ClusterResilience(String cluster, ResilienceOptions options) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("berth-cluster-timer-" + cluster));
        this.breaker = CircuitBreaker.of("cluster-" + cluster, CircuitBreakerConfig.custom()
                .failureRateThreshold(options.failureRatePercent())
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(options.slidingWindowCalls())
                .minimumNumberOfCalls(Math.min(options.slidingWindowCalls(), 5))
                .waitDurationInOpenState(options.openFor())
                .permittedNumberOfCallsInHalfOpenState(2)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(ClusterResilience::isFailureOfTheCluster)
                .build());
        this.timeLimiter = TimeLimiter.of("cluster-" + cluster, TimeLimiterConfig.custom()
                .timeoutDuration(options.callTimeout()).cancelRunningFuture(true).build());
        this.retry = Retry.of("cluster-" + cluster, RetryConfig.custom()
                .maxAttempts(options.retryAttempts())
                .intervalFunction(IntervalFunction.ofExponentialBackoff(options.retryBackoff(), 2.0))
                .retryOnException(ClusterResilience::isRetryable)
                .failAfterMaxAttempts(false)
                .build());
        int threads = options.maxConcurrentCalls();
        this.bulkhead = ThreadPoolBulkhead.of("cluster-" + cluster, ThreadPoolBulkheadConfig.custom()
                .coreThreadPoolSize(Math.max(1, Math.min(2, threads)))
                .maxThreadPoolSize(threads)
                .queueCapacity(threads)
                .keepAliveDuration(Duration.ofSeconds(30))
                .build());
    }

    /**
     * Runs a blocking call on the cluster's own threads, through all four decorators. A try the time
     * limiter gave up on while it still waited in the bulkhead's queue never starts: a create that
     * the manager counts as failed must not reach the cluster later, when a thread frees up.
     */
    <T> CompletionStage<T> call(Callable<T> work) {
        Supplier<CompletionStage<T>> limited = () -> {
            AtomicBoolean givenUp = new AtomicBoolean();
            Supplier<CompletionStage<T>> bulkheaded = () -> {
                try {
                    return bulkhead.executeCallable(() -> {
                        if (givenUp.get()) throw new AbandonedCallException();
                        return work.call();
                    });
                } catch (BulkheadFullException full) {
                    return CompletableFuture.failedFuture(full);
                }
            };
            return timeLimiter.executeCompletionStage(scheduler, bulkheaded).whenComplete((value, error) -> {
                if (error != null) givenUp.set(true);
            });
        };
        Supplier<CompletionStage<T>> guarded = CircuitBreaker.decorateCompletionStage(breaker, limited);
        return Retry.decorateCompletionStage(retry, scheduler, guarded).get();
    }

    /** Thrown, to nobody, by a queued try whose caller had already given up on it. */
    static final class AbandonedCallException extends Exception {
        AbandonedCallException() {
            super("the caller gave up before the call started", null, false, false);
        }
    }

    BreakerState breakerState() {
        return switch (breaker.getState()) {
            case CLOSED, DISABLED, METRICS_ONLY -> BreakerState.CLOSED;
            case HALF_OPEN -> BreakerState.HALF_OPEN;
            case OPEN, FORCED_OPEN -> BreakerState.OPEN;
        };
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    Retry retry() {
        return retry;
    }

    TimeLimiter timeLimiter() {
        return timeLimiter;
    }

    ThreadPoolBulkhead bulkhead() {
        return bulkhead;
    }

    /** A 4xx answer other than 429 is the request's fault, not the cluster's: it neither opens the breaker nor is retried. */
    static boolean isFailureOfTheCluster(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof KubernetesClientException k && k.getCode() >= 400 && k.getCode() < 500 && k.getCode() != 429) return false;
        return !(cause instanceof BulkheadFullException);
    }

    static boolean isRetryable(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof CallNotPermittedException || cause instanceof BulkheadFullException) return false;
        return isFailureOfTheCluster(cause);
    }

    /** The cluster answered, with a client error: it is reachable. */
    static boolean isAnswer(Throwable error) {
        return unwrap(error) instanceof KubernetesClientException k && k.getCode() >= 400 && k.getCode() < 500 && k.getCode() != 429;
    }

    /** An open breaker or a full bulkhead refused the call before it reached the cluster: it says nothing new about the cluster. */
    static boolean isGuardRefusal(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof CallNotPermittedException || cause instanceof BulkheadFullException;
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) cause = cause.getCause();
        return cause;
    }

    @Override
    public void close() {
        try {
            bulkhead.close();
        } catch (Exception ignored) {
            // best effort
        }
        scheduler.shutdownNow();
    }
}
