package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one-time sign-in codes and the sessions they open, on a clock moved by hand. */
class DashboardSessionsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final DashboardSessions sessions = new DashboardSessions(clock);

    @Test
    void aCodeOpensOneSessionStandingForTheTokenItWasMintedWith() {
        DashboardSessions.Code code = sessions.mint("admin-token");
        assertThat(code.expires()).isEqualTo(clock.instant().plus(DashboardSessions.CODE_LIFETIME));

        Optional<DashboardSessions.Session> session = sessions.redeem(code.value());

        assertThat(session).isPresent();
        assertThat(sessions.bearerToken(session.get().id())).contains("admin-token");
        assertThat(session.get().id()).isNotEqualTo(code.value()).doesNotContain("admin-token");
    }

    @Test
    void aCodeWorksOnlyOnce() {
        DashboardSessions.Code code = sessions.mint("admin-token");
        assertThat(sessions.redeem(code.value())).isPresent();
        assertThat(sessions.redeem(code.value())).isEmpty();
    }

    @Test
    void aCodeExpiresAfterTenMinutesAndIsSpentByTheRefusedTry() {
        DashboardSessions.Code late = sessions.mint("admin-token");
        DashboardSessions.Code onTime = sessions.mint("admin-token");
        clock.advance(Duration.ofMinutes(9).plusSeconds(59));
        assertThat(sessions.redeem(onTime.value())).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(sessions.redeem(late.value())).isEmpty();
    }

    @Test
    void unknownOrEmptyCodesAndSessionsAreRefused() {
        sessions.mint("admin-token");
        assertThat(sessions.redeem("made-up")).isEmpty();
        assertThat(sessions.redeem("")).isEmpty();
        assertThat(sessions.redeem(null)).isEmpty();
        assertThat(sessions.bearerToken("made-up")).isEmpty();
        assertThat(sessions.bearerToken(null)).isEmpty();
    }

    @Test
    void aSessionLastsEightHoursAndEndsOnSignOut() {
        String first = sessions.redeem(sessions.mint("t").value()).orElseThrow().id();
        String second = sessions.redeem(sessions.mint("t").value()).orElseThrow().id();
        sessions.end(second);
        assertThat(sessions.bearerToken(second)).isEmpty();
        clock.advance(DashboardSessions.SESSION_LIFETIME.minusSeconds(1));
        assertThat(sessions.bearerToken(first)).contains("t");
        clock.advance(Duration.ofSeconds(1));
        assertThat(sessions.bearerToken(first)).isEmpty();
    }

    @Test
    void codesAreRandomAndBoundedInNumberTheOldestGivingWay() {
        Set<String> seen = new HashSet<>();
        DashboardSessions.Code oldest = sessions.mint("t");
        seen.add(oldest.value());
        for (int i = 1; i < DashboardSessions.MAX_CODES; i++) {
            clock.advance(Duration.ofMillis(1));
            seen.add(sessions.mint("t").value());
        }
        DashboardSessions.Code newest = sessions.mint("t");
        seen.add(newest.value());
        assertThat(seen).hasSize(DashboardSessions.MAX_CODES + 1);
        assertThat(newest.value()).matches("[A-Za-z0-9_-]{43}");
        assertThat(sessions.redeem(oldest.value())).isEmpty();
        assertThat(sessions.redeem(newest.value())).isPresent();
    }

    @Test
    void describingACodeOrSessionShowsNoSecret() {
        DashboardSessions.Code code = sessions.mint("admin-token");
        DashboardSessions.Session session = sessions.redeem(code.value()).orElseThrow();
        assertThat(code.toString()).doesNotContain(code.value());
        assertThat(session.toString()).doesNotContain(session.id());
    }
}
