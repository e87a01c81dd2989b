package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.CommitDecision.Answer;
import dev.berth.manager.dispatch.CommitDecision.LastCopyGone;
import dev.berth.manager.dispatch.CommitDecision.SendCommit;
import dev.berth.manager.dispatch.CommitDecision.Withdraw;
import dev.berth.manager.dispatch.CommitDecision.WriteCommitting;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The commit step's events in (reserved, listed committed, the commit answered, nominations changed): the attempt's
 * transitions and the edge's commands out. One test per rule.
 */
class CommitDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration RETRY = Duration.ofSeconds(10);
    private static final String LOSER_WHY = "withdrawn before its create was confirmed";

    private final CommitDecision decision = new CommitDecision(RETRY);

    private static DispatchAttempt sentTo(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, Duration.ofSeconds(60),
                new PlacementRequest(WorkloadKey.of("team", "train"), 0, List.of()), T0);
        for (String cluster : clusters) attempt.createSent(cluster, T0);
        return attempt;
    }

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    private static WriteCommitting committing(String cluster) {
        return new WriteCommitting(new DispatchStatus(cluster, "a1", RemoteWorkloadPhase.RESERVED, null, null,
                "committing the reserved copy on cluster " + cluster, List.of()));
    }

    private static Withdraw loser(String cluster, String winner) {
        return new Withdraw(cluster, "withdrawn: the copy on " + winner + " was committed", LOSER_WHY);
    }

    @Test
    void theFirstReservationIsRecordedAsChosenBeforeItsCommitIsSent() {
        DispatchAttempt attempt = sentTo("east", "west");

        assertThat(decision.reserved(attempt, "west", at(1))).containsExactly(committing("west"), new SendCommit("west", at(1)));
        assertThat(attempt.committedTo()).isEqualTo("west");
        assertThat(attempt.winner()).as("not before the cluster confirms").isNull();
        assertThat(attempt.clusters()).as("nothing withdrawn before the confirmation").containsExactly("east", "west");
    }

    @Test
    void anotherReservationWhileTheCommitAwaitsItsAnswerSendsNothing() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.reserved(attempt, "east", at(2))).isEmpty();
        assertThat(attempt.committedTo()).isEqualTo("west");
    }

    @Test
    void anUnconfirmedCommitIsSentAgainAfterTheRetryIntervalWithoutRecordingTheChoiceAgain() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.reserved(attempt, "west", at(11))).containsExactly(new SendCommit("west", at(11)));
    }

    @Test
    void aConfirmedCommitMakesTheWinnerAndWithdrawsEveryOtherCopy() {
        DispatchAttempt attempt = sentTo("east", "west", "north");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.answered(attempt, true, "west", Answer.CONFIRMED, at(2)))
                .containsExactly(loser("east", "west"), loser("north", "west"));
        assertThat(attempt.winner()).isEqualTo("west");
        assertThat(attempt.commitConfirmed()).isTrue();
        assertThat(attempt.clusters()).containsExactly("west");
    }

    @Test
    void aRefusedCommitDropsTheClusterAndTheNextReservationIsCommitted() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "west", at(1));
        decision.reserved(attempt, "east", at(2));

        assertThat(decision.answered(attempt, true, "west", Answer.REFUSED, at(3)))
                .containsExactly(committing("east"), new SendCommit("east", at(3)));
        assertThat(attempt.clusters()).containsExactly("east");
        assertThat(attempt.committedTo()).isEqualTo("east");
    }

    @Test
    void aRefusedCommitOfTheLastCopyPlacesTheWorkloadAgain() {
        DispatchAttempt attempt = sentTo("west");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.answered(attempt, true, "west", Answer.REFUSED, at(2))).containsExactly(new LastCopyGone());
        assertThat(attempt.clusters()).isEmpty();
    }

    @Test
    void anUnansweredCommitChangesNothingUntilItIsSentAgain() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.answered(attempt, true, "west", Answer.UNANSWERED, at(2))).isEmpty();
        assertThat(attempt.committedTo()).isEqualTo("west");
        assertThat(attempt.commitConfirmed()).isFalse();
        assertThat(attempt.clusters()).containsExactly("east", "west");
    }

    @Test
    void anAnswerForAnAttemptNoLongerCurrentOrAClusterNoLongerCommittedToIsStale() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "west", at(1));

        assertThat(decision.awaited(attempt, false, "west")).isFalse();
        assertThat(decision.answered(attempt, false, "west", Answer.CONFIRMED, at(2))).isEmpty();
        assertThat(decision.awaited(attempt, true, "east")).isFalse();
        assertThat(decision.answered(attempt, true, "east", Answer.REFUSED, at(2))).isEmpty();
        assertThat(attempt.winner()).isNull();
        assertThat(attempt.clusters()).containsExactly("east", "west");
    }

    @Test
    void aCopyListedAlreadyCommittedIsTheWinnerAndTheOtherCopiesAreWithdrawn() {
        DispatchAttempt attempt = sentTo("east", "west");
        attempt.listedCommitted("east"); // as the listing decision records it

        assertThat(decision.listedCommitted(attempt, "east", at(1))).containsExactly(loser("west", "east"));
        assertThat(attempt.winner()).isEqualTo("east");
        assertThat(attempt.clusters()).containsExactly("east");
    }

    @Test
    void externalCopiesOnClustersNoLongerNominatedAreWithdrawnAndDropped() {
        DispatchAttempt attempt = sentTo("east", "west", "north");

        assertThat(decision.nominated(attempt, List.of("west"))).containsExactly(
                new Withdraw("east", "withdrawn: cluster east is no longer in status.nominatedClusterNames",
                        "withdrawn from the nomination before its create was confirmed"),
                new Withdraw("north", "withdrawn: cluster north is no longer in status.nominatedClusterNames",
                        "withdrawn from the nomination before its create was confirmed"));
        assertThat(attempt.clusters()).containsExactly("west");
    }

    @Test
    void externalWithNoNominatedCopyLeftPlacesTheWorkloadAgain() {
        DispatchAttempt attempt = sentTo("east");

        assertThat(decision.nominated(attempt, List.of())).last().isEqualTo(new LastCopyGone());
        assertThat(attempt.clusters()).isEmpty();
    }

    @Test
    void nominationsNoLongerMatterOnceACopyIsCommitted() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reserved(attempt, "east", at(1));

        assertThat(decision.nominated(attempt, List.of("west"))).isEmpty();
        assertThat(attempt.clusters()).containsExactly("east", "west");
    }
}
