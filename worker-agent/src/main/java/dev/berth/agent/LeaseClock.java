package dev.berth.agent;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Tells whether an attempt's dispatch lease ran out: renewTime + duration is in the past. */
public final class LeaseClock {
    private final Clock clock;

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
        Optional<Instant> renewed = parse(leaseRenewTime);
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
