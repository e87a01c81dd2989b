package dev.berth.manager.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys to reconcile, in the manner of controller-runtime's rate-limited work queue: a key named by an
 * event is ready at once; a key whose reconcile failed is ready again after a backoff that doubles with
 * each failure in a row (reset by a success or by {@link #forget}), while the other keys go on; and every
 * {@link WorkQueueOptions#resyncInterval()} a resync is due, so that an event that was missed is repaired.
 * A key is held once however often it is added. Not thread-safe (the state thread only); the clock is
 * injected.
 */
public final class WorkQueue<K> {
    private final Clock clock;
    private final WorkQueueOptions options;
    private final Set<K> ready = new LinkedHashSet<>();
    /** Keys that failed, with when they are next tried. */
    private final Map<K, Instant> retryAt = new LinkedHashMap<>();
    /** Failures in a row per key, for the backoff and the logs. */
    private final Map<K, Integer> failures = new HashMap<>();
    private Instant lastResync;

    public WorkQueue(Clock clock, WorkQueueOptions options) {
        this.clock = clock;
        this.options = options;
        this.lastResync = clock.instant();
    }

    /** The key is to be reconciled at the next {@link #takeReady}, even if it waits for a retry. */
    public void add(K key) {
        ready.add(key);
    }

    public void addAll(Collection<K> keys) {
        ready.addAll(keys);
    }

    /** True when a key is ready now: added, or its retry is due. */
    public boolean hasReady() {
        return !ready.isEmpty() || nextRetryAt() != null && !clock.instant().isBefore(nextRetryAt());
    }

    /** Every key ready now, in the order added (retries that came due last); they leave the queue. */
    public List<K> takeReady() {
        Instant now = clock.instant();
        retryAt.entrySet().removeIf(due -> {
            if (now.isBefore(due.getValue())) return false;
            ready.add(due.getKey());
            return true;
        });
        List<K> taken = new ArrayList<>(ready);
        ready.clear();
        return taken;
    }

    /**
     * The key's reconcile failed: it is tried again after the backoff for its failures in a row, or at
     * once should an event add it meanwhile. Returns how many failures in a row it has now.
     */
    public int failed(K key) {
        int inARow = failures.merge(key, 1, Integer::sum);
        retryAt.put(key, clock.instant().plus(options.backoff(inARow)));
        return inARow;
    }

    /** The key is to be tried again after a wait (a worker refused its create), or at once should an event add it meanwhile. */
    public void retryAfter(K key, Duration wait) {
        retryAt.put(key, clock.instant().plus(wait));
    }

    /** The key was reconciled: its failures are forgotten, and a retry still waiting is dropped. */
    public void forget(K key) {
        failures.remove(key);
        retryAt.remove(key);
    }

    /** How many times in a row the key's reconcile has failed. */
    public int failures(K key) {
        return failures.getOrDefault(key, 0);
    }

    /** The wait before the next try after the key's current failures in a row. */
    public Duration backoff(K key) {
        return options.backoff(Math.max(1, failures(key)));
    }

    /** The earliest retry waiting, or null when none waits. */
    public Instant nextRetryAt() {
        return retryAt.values().stream().min(Instant::compareTo).orElse(null);
    }

    /** True once per {@link WorkQueueOptions#resyncInterval()}: the caller then adds every key it holds. */
    public boolean resyncDue() {
        Instant now = clock.instant();
        if (now.isBefore(lastResync.plus(options.resyncInterval()))) return false;
        lastResync = now;
        return true;
    }
}
