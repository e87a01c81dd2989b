package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.CreateAnswers.DeleteCopy;
import dev.berth.manager.dispatch.CreateAnswers.HoldUntilLeaseRunsOut;
import dev.berth.manager.dispatch.CreateAnswers.LiftCreateFence;
import dev.berth.manager.dispatch.CreateAnswers.Outcome;
import dev.berth.manager.dispatch.CreateAnswers.PlaceAgainAfterBackoff;
import dev.berth.manager.dispatch.CreateAnswers.PlaceAgainNow;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The answer to a create, in: the attempt's transitions and the edge's commands, out. One test per rule. */
class CreateAnswersTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team", "train");

    private final CreateAnswers answers = new CreateAnswers();

    private static DispatchAttempt sentTo(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, Duration.ofSeconds(60),
                new PlacementRequest(KEY, 0, List.of()), T0);
        for (String cluster : clusters) attempt.createSent(cluster, T0);
        return attempt;
    }

    @Test
    void aCreatedCopyIsConfirmedAndNothingElseHappens() {
        DispatchAttempt attempt = sentTo("east");

        var commands = answers.answered(KEY, attempt, true, "east", Outcome.CREATED, null, T0.plusSeconds(2));

        assertThat(commands).isEmpty();
        assertThat(attempt.isConfirmed("east")).isTrue();
        assertThat(attempt.clusters()).containsExactly("east");
        assertThat(attempt.listingMustShow("east", T0.plusSeconds(3))).isTrue();
    }

    @Test
    void anUnansweredCreateMayStillLandSoTheWorkloadIsHeldAndThenPlacedAgain() {
        DispatchAttempt attempt = sentTo("east");

        var commands = answers.answered(KEY, attempt, true, "east", Outcome.UNANSWERED, "timed out", T0);

        assertThat(commands).containsExactly(new HoldUntilLeaseRunsOut("east", "create unconfirmed (timed out)"), new PlaceAgainNow());
        assertThat(attempt.clusters()).isEmpty();
    }

    @Test
    void aRefusedCreateLandedNowhereSoNoHoldAndTheBackoffGrowsWithRefusalsInARow() {
        assertThat(answers.answered(KEY, sentTo("east"), true, "east", Outcome.REFUSED, "403", T0))
                .containsExactly(new PlaceAgainAfterBackoff(1));
        assertThat(answers.answered(KEY, sentTo("east"), true, "east", Outcome.REFUSED, "403", T0))
                .containsExactly(new PlaceAgainAfterBackoff(2));
    }

    @Test
    void anAcknowledgedCreateResetsTheRefusalsInARow() {
        answers.answered(KEY, sentTo("east"), true, "east", Outcome.REFUSED, "403", T0);
        answers.answered(KEY, sentTo("east"), true, "east", Outcome.CREATED, null, T0);

        assertThat(answers.answered(KEY, sentTo("east"), true, "east", Outcome.REFUSED, "403", T0))
                .containsExactly(new PlaceAgainAfterBackoff(1));
    }

    @Test
    void aFailedCopyOfAnAttemptWithOtherCopiesOnlyLeavesIt() {
        DispatchAttempt attempt = sentTo("east", "west");

        assertThat(answers.answered(KEY, attempt, true, "east", Outcome.REFUSED, "409", T0)).isEmpty();
        assertThat(answers.answered(KEY, attempt, true, "west", Outcome.UNANSWERED, "reset", T0))
                .containsExactly(new HoldUntilLeaseRunsOut("west", "create unconfirmed (reset)"), new PlaceAgainNow());
        assertThat(attempt.clusters()).isEmpty();
    }

    @Test
    void aCopyCreatedForAnAttemptAbandonedMeanwhileIsDeletedAndItsFenceLifted() {
        DispatchAttempt attempt = sentTo("east");

        assertThat(answers.answered(KEY, attempt, false, "east", Outcome.CREATED, null, T0))
                .containsExactly(new DeleteCopy("east", "abandoned while its create was in flight"), new LiftCreateFence("east"));
    }

    @Test
    void aRefusalForAnAbandonedAttemptLiftsTheFenceButAnUnansweredCreateKeepsIt() {
        assertThat(answers.answered(KEY, sentTo("east"), false, "east", Outcome.REFUSED, "403", T0))
                .containsExactly(new LiftCreateFence("east"));
        assertThat(answers.answered(KEY, sentTo("east"), false, "east", Outcome.UNANSWERED, "timed out", T0)).isEmpty();
    }
}
