package dev.berth.manager.dispatch;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The commit step of two-phase dispatch (AllAtOnce, Incremental, External) as events in, the attempt's transitions
 * applied, commands out. The events: a copy reported Reserved, a listing showed a copy already committed, the
 * cluster answered the commit (confirmed, refused, or no answer), and for External the nominated clusters changed.
 * After each, {@link CommitDecider} decides: the copy chosen is recorded in status.dispatch first (a new leader
 * recovers it as the attempt's cluster, so it commits the same copy), then committed on its cluster (sent again
 * while unconfirmed); once its cluster confirms it is the winner and every other copy is withdrawn. A refused
 * commit (the copy gone, another attempt there, a newer leader's stamp) drops the cluster without deleting what is
 * there, so another reservation can win; an unanswered one is sent again later. An answer for an attempt no longer
 * current, or for a cluster no longer committed to, changes nothing. An attempt left with no copy is placed again.
 * Pure: the time is passed in; the state thread only.
 */
public final class CommitDecision {
    /** How the cluster answered the commit: confirmed it, refused it (an answer: 4xx), or did not answer (a timeout, a reset). */
    public enum Answer { CONFIRMED, REFUSED, UNANSWERED }

    /** What the edge does next, in order. */
    public sealed interface Command permits WriteCommitting, SendCommit, Withdraw, LastCopyGone {}

    /** Record the copy chosen for the commit in status.dispatch (status.clusterName stays unset), before the commit is sent. */
    public record WriteCommitting(DispatchStatus status) implements Command {}

    /** Send the commit of the attempt's copy to the cluster, stamped {@code sentAt}; its answer comes back as {@link #answered}. */
    public record SendCommit(String cluster, Instant sentAt) implements Command {}

    /** Delete the attempt's copy on the cluster ({@code deleteWhy}); if its create was never confirmed, hold the workload ({@code holdWhy}). */
    public record Withdraw(String cluster, String deleteWhy, String holdWhy) implements Command {}

    /** The attempt's last copy is gone without running: retire it, clear status.dispatch and place the workload again. */
    public record LastCopyGone() implements Command {}

    private final CommitDecider decider;

    /** @param commitRetry how long an unconfirmed commit waits before it is sent again */
    public CommitDecision(Duration commitRetry) {
        this.decider = new CommitDecider(commitRetry);
    }

    /** The attempt's copy on the cluster reported Reserved, learned {@code now}. */
    public List<Command> reserved(DispatchAttempt attempt, String cluster, Instant now) {
        attempt.reserved(cluster, now);
        return step(attempt, now);
    }

    /**
     * A listing showed the attempt's copy on the cluster already committed (this leader's earlier commit, its answer lost,
     * or a previous leader's): the commit is confirmed and the other copies are withdrawn.
     */
    public List<Command> listedCommitted(DispatchAttempt attempt, String cluster, Instant now) {
        return confirmed(attempt, cluster, now);
    }

    /**
     * Whether an answer of the cluster to a commit of {@code attempt} is awaited: the attempt is still the workload's current
     * one ({@code current}) and still committed to that cluster. Any other answer is stale and changes nothing.
     */
    public boolean awaited(DispatchAttempt attempt, boolean current, String cluster) {
        return current && cluster.equals(attempt.committedTo());
    }

    /** The cluster answered the commit of {@code attempt}'s copy so, learned {@code now}; {@code current}: see {@link #awaited}. */
    public List<Command> answered(DispatchAttempt attempt, boolean current, String cluster, Answer answer, Instant now) {
        if (!awaited(attempt, current, cluster)) return List.of();
        return switch (answer) {
            case CONFIRMED -> confirmed(attempt, cluster, now);
            case REFUSED -> refused(attempt, cluster, now);
            case UNANSWERED -> List.of(); // sent again by a later step, once the retry interval has passed
        };
    }

    /**
     * External dispatch, before any commit: the copies on clusters the outside controller no longer nominates are withdrawn
     * (deleted; one never confirmed holds the workload until its lease ran out) and dropped, as Kueue removes a non-nominated
     * cluster's remote workload. With none left, the workload waits for a nomination again.
     */
    public List<Command> nominated(DispatchAttempt attempt, List<String> nominated) {
        if (attempt.committedTo() != null) return List.of();
        List<Command> commands = new ArrayList<>();
        for (String cluster : List.copyOf(attempt.clusters())) {
            if (nominated.contains(cluster)) continue;
            commands.add(new Withdraw(cluster, "withdrawn: cluster " + cluster + " is no longer in status.nominatedClusterNames",
                    "withdrawn from the nomination before its create was confirmed"));
            attempt.dropCluster(cluster);
        }
        if (attempt.clusters().isEmpty()) commands.add(new LastCopyGone());
        return commands;
    }

    private List<Command> confirmed(DispatchAttempt attempt, String cluster, Instant now) {
        attempt.commitConfirmedBy(cluster);
        return step(attempt, now);
    }

    private List<Command> refused(DispatchAttempt attempt, String cluster, Instant now) {
        attempt.commitRefused(cluster);
        return attempt.clusters().isEmpty() ? List.of(new LastCopyGone()) : step(attempt, now);
    }

    /** What {@link CommitDecider} decides now: commit (recording a new choice first), or withdraw the losers of a confirmed commit. */
    private List<Command> step(DispatchAttempt attempt, Instant now) {
        List<Command> commands = new ArrayList<>();
        CommitDecider.Decision decision = decider.decide(attempt.copies(), now);
        String chosen = decision.commit();
        if (chosen != null) {
            if (attempt.commitSent(chosen, now)) {
                commands.add(new WriteCommitting(new DispatchStatus(chosen, attempt.id(), RemoteWorkloadPhase.RESERVED, null, null,
                        "committing the reserved copy on cluster " + chosen, List.of())));
            }
            commands.add(new SendCommit(chosen, now));
        }
        for (String loser : decision.withdraw()) {
            commands.add(new Withdraw(loser, "withdrawn: the copy on " + attempt.winner() + " was committed",
                    "withdrawn before its create was confirmed"));
        }
        if (attempt.commitConfirmed()) attempt.keepOnlyWinner();
        return commands;
    }
}
