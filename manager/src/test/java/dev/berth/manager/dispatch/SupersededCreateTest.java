package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When a hold on a create the cluster never acknowledged may turn into a hold on the attempt's pods. */
class SupersededCreateTest {
    private static final Instant RAISED = Instant.parse("2026-12-01T12:00:00Z");
    /** A dead leader of epoch 4 recorded the dispatch; this leader has epoch 5. */
    private static final long OLD_LEADER = 4;
    private static final long THIS_LEADER = 5;

    /** A clock the test moves by hand. */
    private static final class MutableClock extends Clock {
        private Instant now = RAISED;

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final MutableClock clock = new MutableClock();
    private final OldAttemptFence unconfirmed = OldAttemptFence.unconfirmed("h100", "a-1", RAISED, RAISED.plusSeconds(70));

    static Stream<Arguments> rows() {
        return Stream.of(
                // name, create epoch at most, agent epoch, listing starts (s after the reading), listed ids, superseded
                Arguments.of("agent took the new epoch, listing after it misses the attempt", OLD_LEADER, THIS_LEADER, 0, Set.of(), true),
                Arguments.of("agent took an even newer epoch", OLD_LEADER, THIS_LEADER + 3, 1, Set.of("b-9"), true),
                Arguments.of("agent still at the old leader's epoch: the late create would start", OLD_LEADER, OLD_LEADER, 1, Set.of(), false),
                Arguments.of("agent has not seen any epoch yet", OLD_LEADER, 0, 1, Set.of(), false),
                Arguments.of("this leader's own unanswered create carries its epoch", THIS_LEADER, THIS_LEADER, 1, Set.of(), false),
                Arguments.of("listing older than the epoch reading proves nothing", OLD_LEADER, THIS_LEADER, -1, Set.of(), false),
                Arguments.of("the copy is listed: it landed", OLD_LEADER, THIS_LEADER, 1, Set.of("a-1"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void anUnconfirmedCreateIsSupersededOnlyWithANewerAgentEpochAndALaterListingWithoutIt(String name, long createEpoch, long agentEpoch,
                                                                                            int listingAfterSeconds, Set<String> listed,
                                                                                            boolean superseded) {
        clock.advance(Duration.ofSeconds(5));
        Instant read = clock.instant();
        SupersededCreate.Poll poll = new SupersededCreate.Poll(agentEpoch, read, read.plusSeconds(listingAfterSeconds), listed);

        SupersededCreate.Verdict verdict = SupersededCreate.decide(unconfirmed, createEpoch, poll, clock.instant());

        assertThat(verdict.superseded()).as(verdict.message()).isEqualTo(superseded);
    }

    @Test
    void onceTheLeaseHasRunOutTheLeaseGateDecidesNotThisRule() {
        clock.advance(Duration.ofSeconds(70));
        SupersededCreate.Poll poll = new SupersededCreate.Poll(THIS_LEADER, clock.instant(), clock.instant(), Set.of());

        SupersededCreate.Verdict verdict = SupersededCreate.decide(unconfirmed, OLD_LEADER, poll, clock.instant());

        assertThat(verdict.superseded()).isFalse();
        assertThat(verdict.message()).contains("has run out already");
    }

    @Test
    void aHoldOnOldPodsIsNotAnUnconfirmedCreate() {
        OldAttemptFence pods = OldAttemptFence.raised("h100", "a-1", RAISED, RAISED.plusSeconds(70));
        SupersededCreate.Poll poll = new SupersededCreate.Poll(THIS_LEADER, clock.instant(), clock.instant(), Set.of());

        assertThat(SupersededCreate.decide(pods, OLD_LEADER, poll, clock.instant()).superseded()).isFalse();
    }

    @Test
    void aSupersededCreateIsStillHeldUntilTwoListingsFindNoPodOfIt() {
        RedispatchGate gate = new RedispatchGate(Duration.ofSeconds(30));
        OldAttemptFence pods = SupersededCreate.podHoldFor(unconfirmed);

        assertThat(pods.unconfirmedCreate()).isFalse();
        assertThat(pods.since()).isEqualTo(RAISED);
        assertThat(pods.leaseGoneAt()).isEqualTo(unconfirmed.leaseGoneAt());
        clock.advance(Duration.ofSeconds(1));
        assertThat(gate.decide(pods.listed(0), ClusterHealth.HEALTHY, clock.instant()).mayRedispatch()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(gate.decide(pods.listed(0).listed(0), ClusterHealth.HEALTHY, clock.instant()).mayRedispatch()).isTrue();
    }

    @Test
    void theMessageNamesTheEpochsAndTheAttempt() {
        SupersededCreate.Poll poll = new SupersededCreate.Poll(THIS_LEADER, clock.instant(), clock.instant(), Set.of());

        assertThat(SupersededCreate.decide(unconfirmed, OLD_LEADER, poll, clock.instant()).message())
                .contains("cluster h100", "epoch 5", "epoch 4", "attempt a-1");
    }
}
