package dev.berth.manager.events;

import java.time.Duration;

/**
 * How many events are kept: at most maxPerObject per involved object (the newest), none older than
 * ttl (the API server's default event TTL is one hour).
 */
public record EventOptions(int maxPerObject, Duration ttl) {
    public static final EventOptions DEFAULTS = new EventOptions(50, Duration.ofHours(1));

    public EventOptions {
        if (maxPerObject < 1) throw new IllegalArgumentException("maxPerObject must be at least 1");
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be positive");
    }
}
