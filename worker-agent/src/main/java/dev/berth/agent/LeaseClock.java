package dev.berth.agent;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Tells whether an attempt's dispatch lease ran out: renewTime + duration is in the past. */
public final class LeaseClock {
    /** Renew times kept parsed; cleared when full, as attempts come and go. */
    private static final int PARSED_LIMIT = 10_000;

    private final Clock clock;
    private final Map<String, Optional<Instant>> parsed = new ConcurrentHashMap<>();

    public LeaseClock(Clock clock) {
        this.clock = clock;
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * An attempt without a renew time or with a non-positive duration has no lease and never expires;
     * an unreadable renew time counts as expired, so a garbled lease cannot keep work alive.
     */
    public boolean isExpired(String leaseRenewTime, int leaseDurationSeconds) {
        if (leaseRenewTime == null || leaseRenewTime.isBlank() || leaseDurationSeconds <= 0) return false;
        Optional<Instant> renewed = parsed.get(leaseRenewTime);
        if (renewed == null) {
            // every pass asks for every attempt, and a renew time changes only when the manager renews the lease
            if (parsed.size() >= PARSED_LIMIT) parsed.clear();
            renewed = parse(leaseRenewTime);
            parsed.put(leaseRenewTime, renewed);
        }
        if (renewed.isEmpty()) return true;
        return renewed.get().plusSeconds(leaseDurationSeconds).isBefore(clock.instant());
    }

    static Optional<Instant> parse(String rfc3339) {
        try {
            return Optional.of(OffsetDateTime.parse(rfc3339).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
