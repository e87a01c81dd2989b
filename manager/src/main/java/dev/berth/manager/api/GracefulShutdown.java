package dev.berth.manager.api;

import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's graceful termination, in its order. From the first step /readyz fails (its {@code shutdown}
 * check) while every request is still served, for the shutdown delay ({@code --shutdown-delay-duration}), so
 * load balancers and Services take the manager out before it stops answering. Then the listener stops taking
 * connections, new watches are refused with 503, the open watches end (their clients re-watch elsewhere, from the
 * resourceVersion they reached), and requests in flight are answered, each once its write is durable, within the
 * drain bound. Only then does the caller close the state behind them. A request cut off by the bound may still have
 * been written: as for any lost connection, the client learns the outcome by reading the object back.
 */
public final class GracefulShutdown {
    private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);
    /** kube-apiserver's default: no delay. Set it to a little more than the load balancer's probe period. */
    public static final Duration DEFAULT_DELAY = Duration.ZERO;
    /** How long requests in flight may take to be answered once the listener stopped; the rest are cut off. */
    public static final Duration DEFAULT_DRAIN_BOUND = Duration.ofSeconds(20);

    private volatile Duration delay = DEFAULT_DELAY;
    private volatile Duration drainBound = DEFAULT_DRAIN_BOUND;
    private volatile boolean begun;
    private volatile boolean draining;
    /** A shutdown this one's readiness follows too (the replica a manager leads for); null for none. */
    private volatile GracefulShutdown outer;

    /** How long to keep serving, not ready, before the listener stops; and the bound on requests in flight after. */
    public GracefulShutdown timing(Duration delay, Duration drainBound) {
        if (delay.isNegative() || drainBound.isNegative()) throw new IllegalArgumentException("shutdown durations must not be negative");
        this.delay = delay;
        this.drainBound = drainBound;
        return this;
    }

    /**
     * The API behind a replica's front is not ready once that replica begins to stop either, so /readyz, /readyz/shutdown
     * and {@code ?exclude=shutdown} answer there as on a manager that stops.
     */
    public GracefulShutdown following(GracefulShutdown outer) {
        this.outer = outer;
        return this;
    }

    /** /readyz's {@code shutdown} check, as kube-apiserver's: it fails from the first step of a shutdown on. */
    HealthEndpoints.Check readinessCheck() {
        return new HealthEndpoints.Check("shutdown", () -> {
            GracefulShutdown replica = outer;
            if (begun) return Optional.of("the manager is shutting down");
            return replica != null && replica.begun() ? Optional.of("the replica is shutting down") : Optional.empty();
        }, true);
    }

    /** True once the listener stopped: a new watch would hold the drain to its bound, so it is refused. */
    boolean draining() {
        return draining;
    }

    /** True from the first step of a shutdown on. */
    public boolean begun() {
        return begun;
    }

    /**
     * The first step alone, on the calling thread: /readyz fails from now, and this returns once the delay ended
     * (at once without one, or when it was taken before). A manager stops what must not outlive it (dispatching, a
     * fenced leader's timers) between this and {@link #drain}.
     */
    public synchronized void beginAndServeForTheDelay() {
        if (begun) return;
        begun = true;
        log.atInfo().setMessage("shutting down: /readyz fails from now, requests are served until the delay ends")
                .addKeyValue("delay", delay.toString()).addKeyValue("drainBound", drainBound.toString()).log();
        pause(delay);
    }

    /**
     * Runs the sequence on the calling thread (a shutdown hook's), blocking for at most the delay plus the drain
     * bound; endStreams ends (or cuts) every open stream, which would otherwise hold the drain to its bound.
     */
    public void drain(HttpServer server, Runnable endStreams) {
        beginAndServeForTheDelay();
        draining = true;
        var stopped = server.shutdown(drainBound.toMillis(), TimeUnit.MILLISECONDS);
        endStreams.run();
        try {
            stopped.toCompletionStage().toCompletableFuture().get(drainBound.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            log.atInfo().setMessage("shutting down: every request in flight was answered").log();
        } catch (Exception e) {
            log.atWarn().setMessage("shutting down: requests still in flight at the drain bound were cut off")
                    .addKeyValue("drainBound", drainBound.toString()).log();
        }
    }

    private static void pause(Duration delay) {
        if (delay.isZero()) return;
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
