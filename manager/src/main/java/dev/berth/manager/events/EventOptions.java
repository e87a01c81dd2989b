package dev.berth.manager.events;

import java.time.Duration;

/**
 * How many events are kept: at most maxPerObject per involved object (the newest), none older than
 * ttl (the API server's default event TTL is one hour), at most maxPerNamespace in one namespace and
 * maxTotal in all; past a bound the least recently seen event goes first. From the similarBeforeCombining-th
 * distinct message about one object with one type and reason within similarWindow, those events are combined into
 * one ({@link SimilarEvents}, client-go's aggregator).
 */
public record EventOptions(int maxPerObject, Duration ttl, int maxPerNamespace, int maxTotal, int similarBeforeCombining,
                           Duration similarWindow) {
    public static final int DEFAULT_MAX_PER_NAMESPACE = 5_000;
    public static final int DEFAULT_MAX_TOTAL = 50_000;
    /** client-go's {@code defaultAggregateMaxEvents} and {@code defaultAggregateIntervalInSeconds}. */
    public static final int DEFAULT_SIMILAR_BEFORE_COMBINING = 10;
    public static final Duration DEFAULT_SIMILAR_WINDOW = Duration.ofMinutes(10);
    public static final EventOptions DEFAULTS = new EventOptions(50, Duration.ofHours(1));

    public EventOptions {
        if (maxPerObject < 1) throw new IllegalArgumentException("maxPerObject must be at least 1");
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be positive");
        if (maxPerNamespace < 1 || maxTotal < 1) throw new IllegalArgumentException("maxPerNamespace and maxTotal must be at least 1");
        if (similarBeforeCombining < 1) throw new IllegalArgumentException("similarBeforeCombining must be at least 1");
        if (similarWindow.isNegative() || similarWindow.isZero()) throw new IllegalArgumentException("similarWindow must be positive");
    }

    /** The default namespace and total bounds. */
    public EventOptions(int maxPerObject, Duration ttl) {
        this(maxPerObject, ttl, DEFAULT_MAX_PER_NAMESPACE, DEFAULT_MAX_TOTAL);
    }

    /** client-go's default combining of similar events. */
    public EventOptions(int maxPerObject, Duration ttl, int maxPerNamespace, int maxTotal) {
        this(maxPerObject, ttl, maxPerNamespace, maxTotal, DEFAULT_SIMILAR_BEFORE_COMBINING, DEFAULT_SIMILAR_WINDOW);
    }
}
