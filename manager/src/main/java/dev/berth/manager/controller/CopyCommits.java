package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.CommitDecider;
import dev.berth.manager.dispatch.CommitDecision;
import dev.berth.manager.dispatch.CommitDecision.Answer;
import dev.berth.manager.dispatch.CommitDecision.LastCopyGone;
import dev.berth.manager.dispatch.CommitDecision.SendCommit;
import dev.berth.manager.dispatch.CommitDecision.Withdraw;
import dev.berth.manager.dispatch.CommitDecision.WriteCommitting;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the commit step of two-phase dispatch ({@link CommitDecision} decides and applies the attempt's transitions):
 * records the chosen copy in status.dispatch, sends the commit to its cluster under the attempt id and this leader's
 * fencing epoch, withdraws the losers once the commit is confirmed, and places the workload again when its last copy
 * is gone. The commit's answer (confirmed, refused, or none) is fed back to the decision as an event. State thread
 * only; the calls answer back on it.
 */
final class CopyCommits {
    private static final Logger log = LoggerFactory.getLogger(CopyCommits.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final long epoch;
    private final CommitDecision decision = new CommitDecision(CommitDecider.DEFAULT_COMMIT_RETRY);

    CopyCommits(DispatchController dispatcher, ManagerState state, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.epoch = epoch;
    }

    /** A copy of the attempt reported Reserved on the cluster. */
    void reserved(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        run(key, attempt, decision.reserved(attempt, cluster, clock.instant()));
    }

    /**
     * A listing showed the attempt's copy on the cluster already committed (by this leader's earlier commit or a previous
     * leader's), and the listing decision recorded it ({@code DispatchAttempt.listedCommitted}): the other copies are withdrawn.
     */
    void listedCommitted(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        logCommitted(key, cluster, attempt);
        run(key, attempt, decision.listedCommitted(attempt, cluster, clock.instant()));
    }

    /**
     * External dispatch, before any commit: the reservations on clusters the outside controller no longer nominates
     * are withdrawn ({@link CommitDecision#nominated}). With none left, the workload waits for a nomination again.
     */
    void withdrawUnnominated(WorkloadKey key, DispatchAttempt attempt, List<String> nominated) {
        run(key, attempt, decision.nominated(attempt, nominated));
    }

    private void run(WorkloadKey key, DispatchAttempt attempt, List<CommitDecision.Command> commands) {
        for (CommitDecision.Command command : commands) {
            if (command instanceof WriteCommitting committing) {
                DispatchStatusWriter.writeDispatch(state, key, committing.status(), null);
            } else if (command instanceof SendCommit commit) {
                send(key, commit, attempt);
            } else if (command instanceof Withdraw withdraw) {
                dispatcher.copies.withdraw(key, attempt, withdraw.cluster(), withdraw.deleteWhy(), withdraw.holdWhy());
            } else if (command instanceof LastCopyGone) {
                dispatcher.lastCopyGone(key, attempt);
                dispatcher.reconcile();
            }
        }
    }

    private void send(WorkloadKey key, SendCommit commit, DispatchAttempt attempt) {
        WorkerClusters clusters = dispatcher.clusters;
        String cluster = commit.cluster();
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .addKeyValue("epoch", epoch).log("committing reserved copy");
        clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(
                calls.commit(key.namespace(), key.name(), attempt.id(), StatusJson.timestamp(commit.sentAt()), epoch),
                done -> answered(key, cluster, attempt, done.succeeded() ? null : done.cause())));
    }

    /**
     * The commit's answer ({@code failure} null: confirmed), fed back to the decision; one for an attempt no longer current
     * (or a cluster no longer committed to) changes nothing.
     */
    private void answered(WorkloadKey key, String cluster, DispatchAttempt attempt, Throwable failure) {
        boolean current = dispatcher.attempts().isCurrent(key, attempt);
        if (!decision.awaited(attempt, current, cluster)) return;
        Answer answer = failure == null ? Answer.CONFIRMED : ClusterCalls.isAnswer(failure) ? Answer.REFUSED : Answer.UNANSWERED;
        switch (answer) {
            case CONFIRMED -> logCommitted(key, cluster, attempt);
            case REFUSED -> log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("commit refused, another reservation may win: " + failure.getMessage());
            case UNANSWERED -> log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("commit unanswered, sent again later: " + failure.getMessage());
        }
        run(key, attempt, decision.answered(attempt, current, cluster, answer, clock.instant()));
    }

    private static void logCommitted(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("reserved copy committed; withdrawing the others");
    }
}
