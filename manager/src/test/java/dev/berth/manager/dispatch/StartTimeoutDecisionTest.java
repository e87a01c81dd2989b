package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.StartTimeoutDecision.Began;
import dev.berth.manager.dispatch.StartTimeoutDecision.CalledOff;
import dev.berth.manager.dispatch.StartTimeoutDecision.Command;
import dev.berth.manager.dispatch.StartTimeoutDecision.CopyConfirmed;
import dev.berth.manager.dispatch.StartTimeoutDecision.DeleteCopy;
import dev.berth.manager.dispatch.StartTimeoutDecision.ExpireLease;
import dev.berth.manager.dispatch.StartTimeoutDecision.PlaceAgain;
import dev.berth.manager.dispatch.StartTimeoutDecision.RenewAtOnce;
import dev.berth.manager.dispatch.StartTimeoutDecision.Withdrawn;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The start timeout (docs/failover.md, issue 20 rule 1): the poll, the listings and the expiries' answers in; the
 * attempt's transitions and the edge's commands out. One test per rule.
 */
class StartTimeoutDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration AVOID_FOR = Duration.ofMinutes(10);
    /** When a copy dispatched at T0 is due. */
    private static final Instant DUE = T0.plus(START_TIMEOUT);
    /** When the lease a copy was stamped with at T0 has surely run out. */
    private static final Instant LEASE_GONE = T0.plus(LEASE).plus(MARGIN);
    private static final WorkloadKey KEY = WorkloadKey.of("team", "train");
    private static final String MESSAGE = "withdrawn from east after 30s: NoCapacity";
    private static final String WHY = "withdrawn: not started within the start timeout";

    private final StartTimeoutDecision decision = new StartTimeoutDecision(new StartTimeoutOptions(START_TIMEOUT, AVOID_FOR), MARGIN);
    private final CurrentAttempts attempts = new CurrentAttempts();

    /** The current attempt, its copies created at T0 and each last reported Pending by its agent. */
    private DispatchAttempt pendingOn(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, LEASE, new PlacementRequest(KEY, 0, List.of()), T0);
        for (String cluster : clusters) {
            attempt.createSent(cluster, T0);
            attempt.listed(cluster, new CopyReport(cluster, "Pending", "NoCapacity"));
        }
        attempts.begin(KEY, attempt);
        return attempt;
    }

    private List<Command> listed(String cluster, String phase, Instant now) {
        return decision.listed(cluster, Set.of(KEY), Map.of(KEY, new CopyReport(cluster, phase, null)), attempts, now);
    }

    private List<Command> goneFromListing(String cluster, Instant now) {
        return decision.listed(cluster, Set.of(), Map.of(), attempts, now);
    }

    private static ExpireLease expiry(String cluster, Instant now, long withdrawal) {
        return new ExpireLease(KEY, cluster, "a1", now.minus(LEASE).minusSeconds(1), withdrawal);
    }

    @Test
    void aCopyPendingPastTheStartTimeoutIsFencedFirstItsLeaseExpiredOnPurpose() {
        DispatchAttempt attempt = pendingOn("east");

        assertThat(decision.poll(attempts, DUE)).containsExactly(new Began(KEY, "a1", List.of("east"), MESSAGE), expiry("east", DUE, 1));
        assertThat(attempt.withdrawing()).as("not renewed from now on, nor looked for in listings").isTrue();
        assertThat(decision.poll(attempts, DUE.plusSeconds(1))).as("its expiry is out; nothing confirmed yet").isEmpty();
    }

    @Test
    void nothingIsWithdrawnBeforeTheStartTimeoutNorWhenTheTimeoutIsZero() {
        DispatchAttempt attempt = pendingOn("east");
        StartTimeoutDecision off = new StartTimeoutDecision(new StartTimeoutOptions(Duration.ZERO, AVOID_FOR), MARGIN);

        assertThat(decision.poll(attempts, DUE.minusMillis(1))).isEmpty();
        assertThat(off.poll(attempts, DUE.plus(Duration.ofHours(1)))).isEmpty();
        assertThat(attempt.withdrawing()).isFalse();
    }

    @Test
    void notWhileARenewalIsInFlightWhichCouldLandAfterTheExpiryAndUndoIt() {
        DispatchAttempt attempt = pendingOn("east");
        attempt.renewalStarted("east", T0.plusSeconds(20));

        assertThat(decision.poll(attempts, DUE)).isEmpty();
        assertThat(attempt.withdrawing()).isFalse();
        attempt.renewalSucceeded("east");
        assertThat(decision.poll(attempts, DUE.plusSeconds(1))).first().isInstanceOf(Began.class);
    }

    @Test
    void aCopyItsAgentReportsStoppedOrRejectedIsConfirmed() {
        pendingOn("east", "west");
        decision.poll(attempts, DUE);

        assertThat(listed("east", "Stopped", DUE.plusSeconds(1))).containsExactly(new CopyConfirmed(KEY, "east", "a1", "its agent reports it Stopped"));
        assertThat(listed("west", "Rejected", DUE.plusSeconds(2))).first()
                .isEqualTo(new CopyConfirmed(KEY, "west", "a1", "its agent reports it Rejected"));
    }

    @Test
    void aCopyGoneFromTheListingIsConfirmed() {
        pendingOn("east");
        decision.poll(attempts, DUE);

        assertThat(goneFromListing("east", DUE.plusSeconds(1))).first().isEqualTo(new CopyConfirmed(KEY, "east", "a1", "gone from the listing"));
    }

    @Test
    void aCopyWhoseLastStampPlusLeasePlusMarginRanOutIsConfirmedEvenIfItsAgentNeverSawTheExpiry() {
        pendingOn("east");
        decision.poll(attempts, DUE);

        assertThat(decision.poll(attempts, LEASE_GONE.minusMillis(1))).isEmpty();
        assertThat(decision.poll(attempts, LEASE_GONE)).first().isEqualTo(new CopyConfirmed(KEY, "east", "a1", "its lease has run out"));
    }

    @Test
    void aCopyStillPendingOrAdmittedWithPodsNoNodeTakesKeepsTheWithdrawalWaiting() {
        DispatchAttempt attempt = pendingOn("east");
        decision.poll(attempts, DUE);

        assertThat(listed("east", "Pending", DUE.plusSeconds(1))).isEmpty();
        assertThat(decision.listed("east", Set.of(KEY), Map.of(KEY, new CopyReport("east", "Admitted", "pod train-0 unschedulable", true)),
                attempts, DUE.plusSeconds(2))).as("no node is no start: its agent stops it, its lease being expired").isEmpty();
        assertThat(goneFromListing("west", DUE.plusSeconds(3))).as("a listing of a cluster without a copy being withdrawn").isEmpty();
        assertThat(attempt.withdrawing()).isTrue();
    }

    @Test
    void aCopyTheAgentStartedBeforeTheExpiryReachedItCallsTheWithdrawalOffAndEveryLeaseIsRenewedAtOnce() {
        DispatchAttempt attempt = pendingOn("east", "west");
        decision.poll(attempts, DUE);

        assertThat(listed("east", "Running", DUE.plusSeconds(1))).containsExactly(new CalledOff(KEY, "east", "a1"),
                new RenewAtOnce(KEY, "east", attempt), new RenewAtOnce(KEY, "west", attempt));
        assertThat(attempt.withdrawing()).isFalse();
        assertThat(goneFromListing("west", DUE.plusSeconds(2))).as("no withdrawal left to confirm").isEmpty();
    }

    @Test
    void onceEveryCopyIsConfirmedEachIsDeletedTheWithdrawalRecordedAndTheWorkloadPlacedAgain() {
        DispatchAttempt attempt = pendingOn("east", "west");
        decision.poll(attempts, DUE);
        Instant last = DUE.plusSeconds(2);

        assertThat(listed("east", "Stopped", DUE.plusSeconds(1))).as("west not confirmed yet").hasSize(1);
        assertThat(goneFromListing("west", last)).containsExactly(new CopyConfirmed(KEY, "west", "a1", "gone from the listing"),
                new DeleteCopy(KEY, "east", "a1", WHY), new DeleteCopy(KEY, "west", "a1", WHY),
                new Withdrawn(KEY, "a1", 1, "east, west", "withdrawn from east, west after 30s: NoCapacity", last),
                new PlaceAgain(KEY, attempt));
        assertThat(attempt.withdrawing()).as("retired as it is: never renewed, never mirrored").isTrue();
        assertThat(decision.poll(attempts, last.plusSeconds(1))).as("finished once").isEmpty();
    }

    @Test
    void theWorkloadKeepsAwayFromTheClustersItWasWithdrawnFromForAWhile() {
        pendingOn("east");
        decision.poll(attempts, DUE);
        Instant withdrawnAt = DUE.plusSeconds(1);
        listed("east", "Stopped", withdrawnAt);

        assertThat(decision.avoided(KEY, withdrawnAt)).containsExactly("east");
        assertThat(decision.avoided(KEY, withdrawnAt.plus(AVOID_FOR).minusMillis(1))).containsExactly("east");
        assertThat(decision.avoided(KEY, withdrawnAt.plus(AVOID_FOR))).isEmpty();
    }

    @Test
    void theWithdrawalsMessageIsToldOnceWithTheNextPlacement() {
        pendingOn("east");
        decision.poll(attempts, DUE);
        listed("east", "Stopped", DUE.plusSeconds(1));

        assertThat(decision.note(KEY)).isEqualTo(MESSAGE);
        assertThat(decision.placed(KEY)).isEqualTo(MESSAGE);
        assertThat(decision.placed(KEY)).isNull();
        assertThat(decision.note(KEY)).isNull();
    }

    @Test
    void anExpiryThatWasNotStoredIsSentAgainAtTheNextPoll() {
        pendingOn("east");
        ExpireLease sent = expiry("east", DUE, 1);
        assertThat(decision.poll(attempts, DUE)).contains(sent);

        decision.expiryNotStored(sent);

        assertThat(decision.poll(attempts, DUE.plusSeconds(1))).containsExactly(expiry("east", DUE.plusSeconds(1), 1));
        assertThat(decision.poll(attempts, DUE.plusSeconds(2))).as("one expiry out at a time").isEmpty();
    }

    @Test
    void aFailedExpiryOfAnEarlierWithdrawalDoesNotResendTheCurrentOnes() {
        DispatchAttempt attempt = pendingOn("east");
        decision.poll(attempts, DUE);
        listed("east", "Running", DUE.plusSeconds(1));
        attempt.listed("east", new CopyReport("east", "Pending", "NoCapacity"));
        assertThat(decision.poll(attempts, DUE.plusSeconds(2))).as("withdrawn again").contains(expiry("east", DUE.plusSeconds(2), 2));

        decision.expiryNotStored(expiry("east", DUE, 1));

        assertThat(decision.poll(attempts, DUE.plusSeconds(3))).isEmpty();
    }

    @Test
    void aWithdrawalWhoseAttemptIsNoLongerCurrentIsDropped() {
        pendingOn("east");
        decision.poll(attempts, DUE);
        attempts.retire(KEY, attempts.get(KEY)); // the workload finished, was evicted or deleted: its attempt retired

        assertThat(listed("east", "Stopped", DUE.plusSeconds(1))).isEmpty();
        assertThat(decision.poll(attempts, LEASE_GONE)).isEmpty();
        assertThat(decision.avoided(KEY, LEASE_GONE)).isEmpty();
    }

    @Test
    void aWorkloadThatIsGoneIsForgottenItsWithdrawalAndTheClustersItKeptAwayFrom() {
        pendingOn("east");
        decision.poll(attempts, DUE);
        listed("east", "Stopped", DUE.plusSeconds(1));
        DispatchAttempt next = pendingOn("west");
        decision.poll(attempts, DUE.plusSeconds(31));

        decision.forget(KEY);

        assertThat(decision.avoided(KEY, DUE.plusSeconds(32))).isEmpty();
        assertThat(decision.note(KEY)).isNull();
        assertThat(goneFromListing("west", DUE.plusSeconds(32))).as("no withdrawal under way").isEmpty();
        assertThat(next.withdrawing()).isTrue();
    }
}
