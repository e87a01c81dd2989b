package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.LeaseRenewalDecision.Answer;
import dev.berth.manager.dispatch.LeaseRenewalDecision.Renewal;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The renewal tick and the answers, in; the attempts' transitions and the renewals to send, out. One test per rule. */
class LeaseRenewalDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team", "train");

    private final Set<String> lost = new HashSet<>();
    private final Set<String> unreachable = new HashSet<>();
    private final LeaseRenewalDecision decision = new LeaseRenewalDecision((cluster, attempt) -> !lost.contains(cluster),
            cluster -> !unreachable.contains(cluster));
    private final CurrentAttempts attempts = new CurrentAttempts();

    private DispatchAttempt sentTo(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, Duration.ofSeconds(60), new PlacementRequest(KEY, 0, List.of()), T0);
        for (String cluster : clusters) attempt.createSent(cluster, T0);
        attempts.begin(KEY, attempt);
        return attempt;
    }

    private List<String> renewedOn(List<Renewal> renewals) {
        return renewals.stream().map(Renewal::cluster).toList();
    }

    @Test
    void everyCopyIsRenewedWithOneStampAndMarkedInFlight() {
        DispatchAttempt attempt = sentTo("east", "west");
        Instant stamp = T0.plusSeconds(20);

        List<Renewal> due = decision.due(attempts, DispatchAttempt::clusters, stamp);

        assertThat(renewedOn(due)).containsExactly("east", "west");
        assertThat(due).allSatisfy(r -> assertThat(r.stamp()).isEqualTo(stamp));
        assertThat(attempt.renewing("east")).isTrue();
        assertThat(attempt.lastStamp("east", T0)).isEqualTo(stamp);
        assertThat(decision.due(attempts, DispatchAttempt::clusters, stamp.plusSeconds(1))).as("one renewal in flight per copy").isEmpty();
    }

    @Test
    void aDrainedOrWithdrawnAttemptIsNeverRenewedItsLeaseWasExpiredOnPurpose() {
        sentTo("east").drain();
        assertThat(decision.due(attempts, DispatchAttempt::clusters, T0)).isEmpty();

        sentTo("east").withdrawForStartTimeout();
        assertThat(decision.due(attempts, DispatchAttempt::clusters, T0)).isEmpty();
    }

    @Test
    void aLostClusterPastTheBlipWindowAndAClusterWithoutAClientAreSkipped() {
        DispatchAttempt attempt = sentTo("east", "west", "north");
        lost.add("east");
        unreachable.add("west");

        assertThat(renewedOn(decision.due(attempts, DispatchAttempt::clusters, T0))).containsExactly("north");
        assertThat(attempt.renewing("east")).isFalse();
        assertThat(attempt.renewing("west")).isFalse();
    }

    @Test
    void aFailedRenewalIsRetriedAtTheNextPollAndASuccessfulOneIsNot() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.due(attempts, DispatchAttempt::clusters, T0);
        decision.answered(attempt, "east", Answer.FAILED);
        decision.answered(attempt, "west", Answer.RENEWED);

        assertThat(renewedOn(decision.due(attempts, DispatchAttempt::renewalsToRetry, T0.plusSeconds(1)))).containsExactly("east");
    }

    @Test
    void aRenewalThatFoundNoCopyIsNotRetried() {
        DispatchAttempt attempt = sentTo("east");
        decision.due(attempts, DispatchAttempt::clusters, T0);
        decision.answered(attempt, "east", Answer.NO_COPY);

        assertThat(decision.due(attempts, DispatchAttempt::renewalsToRetry, T0.plusSeconds(1))).isEmpty();
    }

    @Test
    void aNewLeadersEpochIsStampedAtOnceEvenWithARenewalInFlightButNotOnADrainedOrLostCopy() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.due(attempts, DispatchAttempt::clusters, T0);

        assertThat(decision.stampEpoch(KEY, "east", attempt, T0.plusSeconds(2))).hasValueSatisfying(r -> assertThat(r.stamp()).isEqualTo(T0.plusSeconds(2)));
        assertThat(attempt.lastStamp("east", T0)).isEqualTo(T0.plusSeconds(2));
        lost.add("west");
        assertThat(decision.stampEpoch(KEY, "west", attempt, T0.plusSeconds(2))).isEmpty();
        attempt.drain();
        assertThat(decision.stampEpoch(KEY, "east", attempt, T0.plusSeconds(3))).isEmpty();
    }
}
