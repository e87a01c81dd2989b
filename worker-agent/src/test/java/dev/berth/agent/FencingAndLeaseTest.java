package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FencingAndLeaseTest {
    @ParameterizedTest(name = "highest {0}, offered {1}: accepted {2}, then highest {3}")
    @CsvSource({
            "0, 0, true, 0",
            "0, 3, true, 3",
            "5, 5, true, 5",
            "5, 7, true, 7",
            "5, 4, false, 5",
    })
    void fencingAcceptsOnlyEpochsNotOlderThanTheHighest(long highest, long offered, boolean accepted, long after) {
        FencingGuard guard = new FencingGuard(highest);

        assertThat(guard.isSuperseded(offered)).isEqualTo(!accepted);
        assertThat(guard.accept(offered)).isEqualTo(accepted);
        assertThat(guard.highestAccepted()).isEqualTo(after);
    }

    @Test
    void leaseExpiresOnlyAfterRenewTimePlusDuration() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        LeaseClock lease = new LeaseClock(clock);
        String renewed = "2026-01-01T00:00:00Z";

        assertThat(lease.isExpired(renewed, 30)).isFalse();
        clock.advance(Duration.ofSeconds(30));
        assertThat(lease.isExpired(renewed, 30)).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(lease.isExpired(renewed, 30)).isTrue();
    }

    @Test
    void aRenewTimeAskedAgainIsJudgedAgainstTheClockAndDurationOfEachCall() {
        Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.parse("2026-01-01T00:00:20Z"));
        LeaseClock lease = new LeaseClock(clock);
        String renewed = "2026-01-01T00:00:00Z";

        assertThat(lease.isExpired(renewed, 30)).isFalse();
        assertThat(lease.isExpired(renewed, 10)).isTrue();
        assertThat(lease.isExpired("not-a-time", 30)).isTrue();
        assertThat(lease.isExpired("not-a-time", 30)).as("a garbled lease stays expired").isTrue();
        clock.advance(Duration.ofSeconds(11));
        assertThat(lease.isExpired(renewed, 30)).isTrue();
    }

    @ParameterizedTest(name = "renew time {0}, duration {1}: expired {2}")
    @CsvSource({
            "'', 30, false",
            "2025-12-31T23:00:00Z, 0, false",
            "2025-12-31T23:00:00+01:00, 3600, true",
            "2025-12-31T23:59:50.5Z, 10, true",
            "not-a-time, 30, true",
    })
    void leaseEdgeCases(String renewTime, int duration, boolean expired) {
        LeaseClock lease = new LeaseClock(new Fixtures.MutableClock(Instant.parse("2026-01-01T00:00:01Z")));

        assertThat(lease.isExpired(renewTime, duration)).isEqualTo(expired);
    }
}
