package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Health from breaker and heartbeat, one row per behaviour; contact grace 30s, heartbeat late 15s, agent lost 60s. */
class ClusterHealthPolicyTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private final ClusterHealthPolicy policy = new ClusterHealthPolicy(Clock.fixed(NOW, ZoneOffset.UTC), HealthOptions.DEFAULTS);

    private static Instant ago(int seconds) {
        return NOW.minusSeconds(seconds);
    }

    private static ClusterContact contact(BreakerState breaker, Instant lastSuccess, boolean failed, Instant heartbeat) {
        return new ClusterContact(breaker, lastSuccess, failed, failed ? "connection refused" : null, heartbeat, ago(600));
    }

    static Stream<Arguments> rows() {
        BreakerState closed = BreakerState.CLOSED;
        return Stream.of(
                Arguments.of("reachable with a fresh heartbeat", contact(closed, ago(1), false, ago(2)), ClusterHealth.HEALTHY),
                Arguments.of("one failed poll is a blip", contact(closed, ago(3), true, ago(4)), ClusterHealth.DEGRADED),
                Arguments.of("a half-open breaker probes", contact(BreakerState.HALF_OPEN, ago(3), false, ago(4)), ClusterHealth.DEGRADED),
                Arguments.of("a few missed heartbeats", contact(closed, ago(1), false, ago(20)), ClusterHealth.DEGRADED),
                Arguments.of("heartbeat exactly at the lost limit is still late", contact(closed, ago(1), false, ago(60)), ClusterHealth.DEGRADED),
                Arguments.of("heartbeat past the lost limit", contact(closed, ago(1), false, ago(61)), ClusterHealth.AGENT_LOST),
                Arguments.of("no agent ever, long after connecting", contact(closed, ago(1), false, null), ClusterHealth.AGENT_LOST),
                Arguments.of("an open breaker", contact(BreakerState.OPEN, ago(1), true, ago(1)), ClusterHealth.UNREACHABLE),
                Arguments.of("no successful call within the contact grace", contact(closed, ago(31), true, ago(31)), ClusterHealth.UNREACHABLE),
                Arguments.of("failing calls inside the grace stay degraded", contact(closed, ago(29), true, ago(29)), ClusterHealth.DEGRADED),
                Arguments.of("unreachable wins over agent lost", contact(BreakerState.OPEN, ago(120), true, ago(120)), ClusterHealth.UNREACHABLE),
                Arguments.of("just connected, no heartbeat yet",
                        new ClusterContact(closed, ago(1), false, null, null, ago(5)), ClusterHealth.DEGRADED),
                Arguments.of("just connected, never reached yet",
                        new ClusterContact(closed, null, false, null, null, ago(5)), ClusterHealth.DEGRADED),
                Arguments.of("never reached since connecting long ago",
                        new ClusterContact(closed, null, true, "connection refused", null, ago(31)), ClusterHealth.UNREACHABLE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void health(String behaviour, ClusterContact contact, ClusterHealth expected) {
        HealthAssessment assessed = policy.assess(contact);
        assertThat(assessed.health()).as(assessed.message()).isEqualTo(expected);
        assertThat(assessed.message()).isNotBlank();
    }

    @org.junit.jupiter.api.Test
    void messagesSayWhatIsWrong() {
        assertThat(policy.assess(contact(BreakerState.OPEN, ago(1), true, ago(1))).message()).contains("circuit breaker open", "connection refused");
        assertThat(policy.assess(contact(BreakerState.CLOSED, ago(1), false, ago(61))).message())
                .contains("agent heartbeat last renewed at " + ago(61), "61s ago");
        assertThat(new ClusterHealthPolicy(Clock.fixed(NOW, ZoneOffset.UTC),
                new HealthOptions(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(3)))
                .assess(contact(BreakerState.CLOSED, ago(1), false, ago(4))).health()).isEqualTo(ClusterHealth.AGENT_LOST);
    }
}
