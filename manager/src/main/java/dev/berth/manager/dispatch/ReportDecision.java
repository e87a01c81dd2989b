package dev.berth.manager.dispatch;

import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a cluster's report of a current attempt's copy means for the workload: the event "the cluster reported
 * the copy" in, the attempt's transitions applied, the commands for the edge out, in the order the edge runs them.
 * A report of a copy other than the committed one (two-phase: the others are being withdrawn) means nothing. Else
 * the provisioning check follows the report first, then by phase:
 * <ul>
 *   <li>Admitted or Running: the first cluster to report so is the winner ({@link DispatchAttempt#admittedOn}), the
 *       other copies are withdrawn and dropped ({@link DispatchAttempt#keepOnlyWinner}); status.dispatch names the
 *       cluster, the MultiKueue check turns Ready, and the agent's pod readiness becomes the workload's PodsReady;</li>
 *   <li>Succeeded or Failed: the last report and the outcome are written at once, the attempt is retired, its copy
 *       deleted and the workload finished;</li>
 *   <li>Stopped or Rejected: the outcome goes into the history; a copy stopped on a drained cluster is handed to
 *       failover, any other is abandoned (a lease that ran out counted) and the check turns Retry;</li>
 *   <li>Reserved: status.dispatch follows, then the commit step ({@link CommitDecision});</li>
 *   <li>anything else: status.dispatch follows.</li>
 * </ul>
 * While the copy has not finished, the remote object's status (or pods' statuses) is mirrored onto the workload's
 * owner. Pure: the time is passed in; the state thread only.
 */
public final class ReportDecision {

    /** The workload's MultiKueue admission check, as the decision reads it. */
    public record Check(String name, String state) {}

    /**
     * What the cluster reports of the copy.
     *
     * @param status              the report as status.dispatch carries it (phase, reason, message, pod counts, ...)
     * @param allPodsReady        the agent's waitForPodsReady verdict; null from an agent that reports none
     * @param carriesObjectStatus whether it carries the remote object's status or its pods' statuses
     */
    public record Report(DispatchStatus status, Boolean allPodsReady, boolean carriesObjectStatus) {
        public Report {
            Objects.requireNonNull(status, "status");
        }
    }

    /** An attempt's outcome for status.dispatchHistory ({@link DispatchParts#withOutcome}). */
    public record Outcome(String attemptId, String cluster, int number, String phase, String reason, Instant at) {}

    /** What the edge does next, in order. */
    public sealed interface Command permits FollowProvisioning, FirstReport, Withdraw, WriteDispatch, SetCheckState, SetPodsReady,
            WriteLastReport, MirrorObjectStatus, Retire, DeleteRemote, Finish, RecordOutcome, LeaseExpired, HandToFailover, Abandon,
            CommitStep {}

    /** The provisioning checks follow the report (first: a copy admitted on provisioned capacity has every check Ready together). */
    public record FollowProvisioning() implements Command {}

    /** The metric: the first report of the attempt admitted came this long after its dispatch. */
    public record FirstReport(String cluster, Duration sinceDispatch) implements Command {}

    /** Delete the attempt's copy on the cluster ({@code deleteWhy}); if its create was never confirmed, hold the workload ({@code holdWhy}). */
    public record Withdraw(String cluster, String deleteWhy, String holdWhy) implements Command {}

    /** Write status.dispatch and status.clusterName (null removes it). */
    public record WriteDispatch(DispatchStatus status, String clusterName) implements Command {}

    /** Set the workload's admission check to the state, with the message. */
    public record SetCheckState(String check, String state, String message) implements Command {}

    /** The worker's pod readiness becomes the workload's PodsReady condition. */
    public record SetPodsReady(boolean ready) implements Command {}

    /** The last report (status.dispatch, status.clusterName) and the attempt's outcome, in one status write. */
    public record WriteLastReport(DispatchStatus status, String clusterName, Outcome outcome) implements Command {}

    /** Copy the remote object's status (and its pods') onto the workload's owner. */
    public record MirrorObjectStatus() implements Command {}

    /** The attempt is no longer current: it is never adopted again. */
    public record Retire() implements Command {}

    /** Delete the copy on the cluster. */
    public record DeleteRemote(String cluster, String why) implements Command {}

    /** Finish the workload. */
    public record Finish(boolean succeeded, String reason, String message) implements Command {}

    /** Record the attempt's outcome in status.dispatchHistory. */
    public record RecordOutcome(Outcome outcome) implements Command {}

    /** The metric: the agent on the cluster stopped the attempt because its lease ran out. */
    public record LeaseExpired(String cluster) implements Command {}

    /** The copy stopped on a cluster being drained: failover evicts the workload so it runs elsewhere. */
    public record HandToFailover(String cluster) implements Command {}

    /** The attempt is abandoned ({@code why}): retired, its copies withdrawn, status.dispatch cleared. */
    public record Abandon(String why) implements Command {}

    /** The copy on the cluster is a reservation: the commit step follows ({@link CommitDecision#reserved}). */
    public record CommitStep(String cluster) implements Command {}

    /**
     * The cluster reported {@code report} of {@code attempt}'s copy, learned {@code now}; {@code check} is the workload's
     * MultiKueue check, null when it has none (then the report means nothing).
     */
    public List<Command> reported(String cluster, DispatchAttempt attempt, Check check, Report report, Instant now) {
        if (check == null) return List.of();
        // two-phase: once a copy is chosen, the others are being withdrawn and their reports are not the workload's
        if (attempt.committedTo() != null && !cluster.equals(attempt.committedTo())) return List.of();
        List<Command> commands = new ArrayList<>();
        commands.add(new FollowProvisioning());
        String phase = report.status().phase();
        switch (phase) {
            case RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.RUNNING -> {
                admitted(cluster, attempt, check, report, now, commands);
                // waitForPodsReady: the worker's readiness becomes the Workload's PodsReady (an older agent reports none)
                if (report.allPodsReady() != null) commands.add(new SetPodsReady(report.allPodsReady()));
            }
            case RemoteWorkloadPhase.SUCCEEDED, RemoteWorkloadPhase.FAILED -> finished(cluster, attempt, report, now, commands);
            case RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REJECTED -> stopped(cluster, attempt, check, report, now, commands);
            case RemoteWorkloadPhase.RESERVED -> {
                commands.add(new WriteDispatch(report.status(), attempt.winner()));
                commands.add(new CommitStep(cluster));
            }
            default -> commands.add(new WriteDispatch(report.status(), attempt.winner()));
        }
        if (report.carriesObjectStatus() && !RemoteWorkloadPhase.isFinal(phase)) commands.add(new MirrorObjectStatus());
        return commands;
    }

    /** Admitted or running: the first such cluster wins and the other copies are withdrawn; the check turns Ready. */
    private static void admitted(String cluster, DispatchAttempt attempt, Check check, Report report, Instant now, List<Command> commands) {
        if (attempt.winner() == null) {
            attempt.admittedOn(cluster);
            if (attempt.dispatchedAt() != null) commands.add(new FirstReport(cluster, Duration.between(attempt.dispatchedAt(), now)));
            for (String other : attempt.clustersBut(cluster)) {
                // should the winner's copy fail, a loser's create still on its way must not run next to the next attempt
                commands.add(new Withdraw(other, "another cluster admitted first", "another cluster admitted first"));
            }
            attempt.keepOnlyWinner();
        }
        commands.add(new WriteDispatch(report.status(), cluster));
        if (!CheckStates.READY.equals(check.state())) {
            commands.add(new SetCheckState(check.name(), CheckStates.READY, "admitted in cluster " + cluster + " (attempt " + attempt.id() + ")"));
        }
    }

    /** Succeeded or failed: the last report and the outcome at once, then the attempt retired, its copy deleted, the workload finished. */
    private static void finished(String cluster, DispatchAttempt attempt, Report report, Instant now, List<Command> commands) {
        DispatchStatus status = report.status();
        boolean succeeded = RemoteWorkloadPhase.SUCCEEDED.equals(status.phase());
        commands.add(new WriteLastReport(status, cluster, outcome(cluster, attempt, status, now)));
        commands.add(new MirrorObjectStatus());
        commands.add(new Retire());
        commands.add(new DeleteRemote(cluster, "finished"));
        commands.add(new Finish(succeeded, succeeded ? Conditions.Reasons.SUCCEEDED : Conditions.Reasons.FAILED,
                Objects.requireNonNullElse(status.message(), "finished in cluster " + cluster)));
    }

    /** Stopped or rejected: recorded; a copy on a drained cluster is handed to failover, any other abandoned (check Retry). */
    private static void stopped(String cluster, DispatchAttempt attempt, Check check, Report report, Instant now, List<Command> commands) {
        DispatchStatus status = report.status();
        commands.add(new RecordOutcome(outcome(cluster, attempt, status, now)));
        if (attempt.draining()) {
            commands.add(new HandToFailover(cluster));
            return;
        }
        if (RemoteWorkloadPhase.REASON_LEASE_EXPIRED.equals(status.reason())) commands.add(new LeaseExpired(cluster));
        commands.add(new Abandon(status.phase()));
        commands.add(new SetCheckState(check.name(), CheckStates.RETRY,
                "attempt " + attempt.id() + " in cluster " + cluster + " " + status.phase() + ": " + status.reason()));
    }

    private static Outcome outcome(String cluster, DispatchAttempt attempt, DispatchStatus status, Instant now) {
        return new Outcome(attempt.id(), cluster, attempt.number(), status.phase(), status.reason(), now);
    }
}
