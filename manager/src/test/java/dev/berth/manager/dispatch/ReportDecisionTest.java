package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.ReportDecision.Abandon;
import dev.berth.manager.dispatch.ReportDecision.Check;
import dev.berth.manager.dispatch.ReportDecision.CommitStep;
import dev.berth.manager.dispatch.ReportDecision.DeleteRemote;
import dev.berth.manager.dispatch.ReportDecision.Finish;
import dev.berth.manager.dispatch.ReportDecision.FirstReport;
import dev.berth.manager.dispatch.ReportDecision.FollowProvisioning;
import dev.berth.manager.dispatch.ReportDecision.HandToFailover;
import dev.berth.manager.dispatch.ReportDecision.LeaseExpired;
import dev.berth.manager.dispatch.ReportDecision.MirrorObjectStatus;
import dev.berth.manager.dispatch.ReportDecision.Outcome;
import dev.berth.manager.dispatch.ReportDecision.RecordOutcome;
import dev.berth.manager.dispatch.ReportDecision.Report;
import dev.berth.manager.dispatch.ReportDecision.Retire;
import dev.berth.manager.dispatch.ReportDecision.SetCheckState;
import dev.berth.manager.dispatch.ReportDecision.SetPodsReady;
import dev.berth.manager.dispatch.ReportDecision.Withdraw;
import dev.berth.manager.dispatch.ReportDecision.WriteDispatch;
import dev.berth.manager.dispatch.ReportDecision.WriteLastReport;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cluster's report of the current attempt's copy, in: the attempt's transitions and the edge's commands, out. One test per rule. */
class ReportDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Instant NOW = T0.plusSeconds(5);
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Check PENDING = new Check("multikueue", CheckStates.PENDING);
    private static final Check READY = new Check("multikueue", CheckStates.READY);

    private final ReportDecision decision = new ReportDecision();

    private static DispatchAttempt sentTo(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 2, LEASE,
                new PlacementRequest(WorkloadKey.of("team", "train"), 0, List.of()), T0);
        for (String cluster : clusters) attempt.createSent(cluster, T0);
        return attempt;
    }

    private static DispatchStatus status(String cluster, String phase, String reason, String message) {
        return new DispatchStatus(cluster, "a1", phase, new DispatchStatus.PodCounts(1, 0, 0), reason, message, List.of());
    }

    private static Report report(DispatchStatus status) {
        return new Report(status, null, false);
    }

    @Test
    void withoutAMultiKueueCheckAReportMeansNothing() {
        DispatchAttempt attempt = sentTo("east", "west");

        assertThat(decision.reported("east", attempt, null, report(status("east", RemoteWorkloadPhase.ADMITTED, null, null)), NOW)).isEmpty();
        assertThat(attempt.winner()).isNull();
        assertThat(attempt.clusters()).containsExactly("east", "west");
    }

    @Test
    void onceACopyIsCommittedReportsOfTheOtherCopiesMeanNothing() {
        DispatchAttempt attempt = sentTo("east", "west");
        attempt.reserved("east", T0);
        attempt.commitSent("east", T0);

        assertThat(decision.reported("west", attempt, PENDING, report(status("west", RemoteWorkloadPhase.ADMITTED, null, null)), NOW)).isEmpty();
        assertThat(attempt.winner()).isNull();
        assertThat(decision.reported("east", attempt, PENDING, report(status("east", RemoteWorkloadPhase.RESERVED, null, null)), NOW))
                .as("the committed copy's own report is mirrored").isNotEmpty();
    }

    @Test
    void theFirstClusterToAdmitWinsTheOthersAreWithdrawnAndTheCheckTurnsReady() {
        DispatchAttempt attempt = sentTo("east", "west", "north");
        DispatchStatus admitted = status("west", RemoteWorkloadPhase.ADMITTED, null, null);

        assertThat(decision.reported("west", attempt, PENDING, report(admitted), NOW)).containsExactly(
                new FollowProvisioning(),
                new FirstReport("west", Duration.ofSeconds(5)),
                new Withdraw("east", "another cluster admitted first", "another cluster admitted first"),
                new Withdraw("north", "another cluster admitted first", "another cluster admitted first"),
                new WriteDispatch(admitted, "west"),
                new SetCheckState("multikueue", CheckStates.READY, "admitted in cluster west (attempt a1)"));
        assertThat(attempt.winner()).isEqualTo("west");
        assertThat(attempt.clusters()).containsExactly("west");
    }

    @Test
    void theWinnersLaterReportsOnlyFollowInStatusDispatch() {
        DispatchAttempt attempt = sentTo("east", "west");
        decision.reported("west", attempt, PENDING, report(status("west", RemoteWorkloadPhase.ADMITTED, null, null)), NOW);
        DispatchStatus running = status("west", RemoteWorkloadPhase.RUNNING, null, null);

        assertThat(decision.reported("west", attempt, READY, report(running), NOW.plusSeconds(10)))
                .containsExactly(new FollowProvisioning(), new WriteDispatch(running, "west"));
        assertThat(attempt.winner()).isEqualTo("west");
    }

    @Test
    void anAttemptNotDispatchedByThisManagerHasNoFirstReportTime() {
        DispatchAttempt attempt = DispatchAttempt.recovered("a1", "east", true, 1, LEASE, T0);
        DispatchStatus running = status("east", RemoteWorkloadPhase.RUNNING, null, null);

        assertThat(decision.reported("east", attempt, PENDING, report(running), NOW)).containsExactly(new FollowProvisioning(),
                new WriteDispatch(running, "east"), new SetCheckState("multikueue", CheckStates.READY, "admitted in cluster east (attempt a1)"));
    }

    @Test
    void theAgentsPodReadinessBecomesPodsReadyAndAnAgentReportingNoneLeavesItAlone() {
        DispatchStatus running = status("east", RemoteWorkloadPhase.RUNNING, null, null);

        assertThat(decision.reported("east", sentTo("east"), READY, new Report(running, false, false), NOW))
                .containsExactly(new FollowProvisioning(), new FirstReport("east", Duration.ofSeconds(5)), new WriteDispatch(running, "east"),
                        new SetPodsReady(false));
        assertThat(decision.reported("east", sentTo("east"), READY, new Report(running, null, false), NOW))
                .doesNotHaveAnyElementsOfTypes(SetPodsReady.class);
    }

    @Test
    void aSucceededCopyWritesItsLastReportAndOutcomeThenIsRetiredDeletedAndFinishesTheWorkload() {
        DispatchAttempt attempt = sentTo("east");
        DispatchStatus succeeded = status("east", RemoteWorkloadPhase.SUCCEEDED, "Completed", "job done");

        assertThat(decision.reported("east", attempt, READY, new Report(succeeded, true, true), NOW)).containsExactly(
                new FollowProvisioning(),
                new WriteLastReport(succeeded, "east", new Outcome("a1", "east", 2, RemoteWorkloadPhase.SUCCEEDED, "Completed", NOW)),
                new MirrorObjectStatus(),
                new Retire(),
                new DeleteRemote("east", "finished"),
                new Finish(true, Conditions.Reasons.SUCCEEDED, "job done"));
    }

    @Test
    void aFailedCopyWithoutAMessageFailsTheWorkloadNamingTheCluster() {
        DispatchStatus failed = status("east", RemoteWorkloadPhase.FAILED, "BackoffLimitExceeded", null);

        assertThat(decision.reported("east", sentTo("east"), READY, report(failed), NOW))
                .endsWith(new Finish(false, Conditions.Reasons.FAILED, "finished in cluster east"));
    }

    @Test
    void aStoppedOrRejectedCopyIsRecordedAbandonedAndTheCheckTurnsRetry() {
        DispatchAttempt attempt = sentTo("east");
        DispatchStatus rejected = status("east", RemoteWorkloadPhase.REJECTED, "UnsupportedTemplate", null);

        assertThat(decision.reported("east", attempt, READY, new Report(rejected, null, true), NOW)).containsExactly(
                new FollowProvisioning(),
                new RecordOutcome(new Outcome("a1", "east", 2, RemoteWorkloadPhase.REJECTED, "UnsupportedTemplate", NOW)),
                new Abandon(RemoteWorkloadPhase.REJECTED),
                new SetCheckState("multikueue", CheckStates.RETRY, "attempt a1 in cluster east Rejected: UnsupportedTemplate"));
    }

    @Test
    void aCopyStoppedBecauseItsLeaseRanOutIsCountedAsLeaseExpired() {
        DispatchStatus stopped = status("east", RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REASON_LEASE_EXPIRED, null);

        assertThat(decision.reported("east", sentTo("east"), READY, report(stopped), NOW)).containsSubsequence(
                new RecordOutcome(new Outcome("a1", "east", 2, RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REASON_LEASE_EXPIRED, NOW)),
                new LeaseExpired("east"),
                new Abandon(RemoteWorkloadPhase.STOPPED));
    }

    @Test
    void aCopyStoppedOnADrainedClusterIsHandedToFailoverNeitherAbandonedNorCountedAsExpired() {
        DispatchAttempt attempt = sentTo("east");
        attempt.drain();
        DispatchStatus stopped = status("east", RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REASON_LEASE_EXPIRED, null);

        assertThat(decision.reported("east", attempt, READY, report(stopped), NOW)).containsExactly(
                new FollowProvisioning(),
                new RecordOutcome(new Outcome("a1", "east", 2, RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REASON_LEASE_EXPIRED, NOW)),
                new HandToFailover("east"));
    }

    @Test
    void aReservedCopyFollowsInStatusDispatchWithoutAClusterNameThenTakesTheCommitStep() {
        DispatchAttempt attempt = sentTo("east", "west");
        DispatchStatus reserved = status("west", RemoteWorkloadPhase.RESERVED, null, null);

        assertThat(decision.reported("west", attempt, PENDING, report(reserved), NOW))
                .containsExactly(new FollowProvisioning(), new WriteDispatch(reserved, null), new CommitStep("west"));
        assertThat(attempt.copies().reservedSince()).as("the commit step records the reservation").isEmpty();
    }

    @Test
    void anyOtherPhaseOnlyFollowsInStatusDispatchUnderTheWinnerChosenSoFar() {
        DispatchStatus pending = status("east", RemoteWorkloadPhase.PENDING, "waiting for quota", null);

        assertThat(decision.reported("east", sentTo("east", "west"), PENDING, report(pending), NOW))
                .containsExactly(new FollowProvisioning(), new WriteDispatch(pending, null));
    }

    @Test
    void theRemoteObjectStatusIsMirroredLastWhileTheCopyHasNotFinished() {
        DispatchStatus running = status("east", RemoteWorkloadPhase.RUNNING, null, null);
        DispatchStatus stopped = status("east", RemoteWorkloadPhase.STOPPED, "Preempted", null);

        assertThat(decision.reported("east", sentTo("east"), READY, new Report(running, null, true), NOW))
                .last().isEqualTo(new MirrorObjectStatus());
        assertThat(decision.reported("east", sentTo("east"), READY, new Report(stopped, null, true), NOW))
                .doesNotHaveAnyElementsOfTypes(MirrorObjectStatus.class);
    }
}
