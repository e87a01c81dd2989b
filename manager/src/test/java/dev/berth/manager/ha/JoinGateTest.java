package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class JoinGateTest {
    private final MovableClock clock = new MovableClock();

    @Test
    void aStartingReplicaWaitsForEveryExpectedMember() {
        JoinGate gate = new JoinGate(3, Duration.ofSeconds(30), clock);
        assertThat(gate.settle(1, () -> false)).isNull();
        assertThat(gate.settle(2, () -> false)).isNull();
        assertThat(gate.settle(3, () -> false)).isEqualTo(JoinGate.Settled.EXPECTED_MEMBERS_JOINED);
    }

    @Test
    void aReplicaJoiningAClusterThatAlreadyHasALeaderNeedNotWait() {
        JoinGate gate = new JoinGate(3, Duration.ofSeconds(30), clock);
        assertThat(gate.settle(2, () -> true)).isEqualTo(JoinGate.Settled.LEADER_ALREADY_KNOWN);
    }

    @Test
    void aMemberThatNeverComesKeepsTheOthersWaitingOnlyUntilTheJoinTimeout() {
        JoinGate gate = new JoinGate(2, Duration.ofSeconds(30), clock);
        clock.advance(Duration.ofSeconds(29));
        assertThat(gate.settle(1, () -> false)).isNull();
        clock.advance(Duration.ofSeconds(1));
        assertThat(gate.settle(1, () -> false)).isEqualTo(JoinGate.Settled.JOIN_TIMEOUT);
    }

    @Test
    void onceSettledItStaysSettledWhateverHappensToTheMembers() {
        JoinGate gate = new JoinGate(2, Duration.ofSeconds(30), clock);
        assertThat(gate.settled(2, () -> false)).isTrue();
        assertThat(gate.settled(1, () -> false)).isTrue();
        assertThat(gate.isSettled()).isTrue();
    }

    @Test
    void theLeaderIsNotLookedUpOnceTheMembersAreThere() {
        JoinGate gate = new JoinGate(1, Duration.ofSeconds(30), clock);
        assertThat(gate.settled(1, () -> {
            throw new AssertionError("no lookup needed");
        })).isTrue();
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-11-29T12:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
