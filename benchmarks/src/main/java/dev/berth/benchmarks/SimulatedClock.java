package dev.berth.benchmarks;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Simulated time for the benchmarks that replay a history without waiting: it moves only when told. */
final class SimulatedClock extends Clock {
    private long millis = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    void advance(long byMillis) {
        millis += byMillis;
    }

    void set(long toMillis) {
        millis = toMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
