package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.CommitDecider;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the commit step of two-phase dispatch ({@link CommitDecider} decides): records the chosen copy in
 * status.dispatch first (a new leader recovers it as the attempt's cluster, so it commits the same copy),
 * then commits it on its cluster under the attempt id and this leader's fencing epoch; once the cluster
 * confirms, the copy is the winner and every other copy is withdrawn. A commit the cluster refuses (its
 * copy gone, another attempt's there, or stamped by a newer leader) drops that cluster from the attempt,
 * without deleting what is there, so another reservation can win. State thread only; the calls answer back on it.
 */
final class CopyCommits {
    private static final Logger log = LoggerFactory.getLogger(CopyCommits.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final long epoch;
    private final CommitDecider decider;

    CopyCommits(DispatchController dispatcher, ManagerState state, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.epoch = epoch;
        this.decider = new CommitDecider(clock, CommitDecider.DEFAULT_COMMIT_RETRY);
    }

    /** A copy of the attempt reported Reserved on the cluster. */
    void reserved(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        attempt.reserved(cluster, clock.instant());
        act(key, attempt);
    }

    /**
     * A listing showed the attempt's copy on the cluster already committed (by this leader's earlier commit or a previous
     * leader's), and the listing decision recorded it ({@code DispatchAttempt.listedCommitted}): the other copies are withdrawn.
     */
    void listedCommitted(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        confirmed(key, cluster, attempt);
    }

    /**
     * External dispatch, before any commit: the reservations on clusters the outside controller no longer nominates
     * are withdrawn (deleted; one never confirmed holds the workload until its lease ran out), as Kueue removes a
     * non-nominated cluster's remote workload. With none left, the workload waits for a nomination again.
     */
    void withdrawUnnominated(WorkloadKey key, DispatchAttempt attempt, List<String> nominated) {
        if (attempt.committedTo() != null) return;
        for (String cluster : new ArrayList<>(attempt.clusters())) {
            if (nominated.contains(cluster)) continue;
            dispatcher.copies.withdraw(key, attempt, cluster, "withdrawn: cluster " + cluster + " is no longer in status.nominatedClusterNames",
                    "withdrawn from the nomination before its create was confirmed");
            attempt.dropCluster(cluster);
        }
        if (attempt.clusters().isEmpty()) {
            dispatcher.lastCopyGone(key, attempt);
            dispatcher.reconcile();
        }
    }

    private void act(WorkloadKey key, DispatchAttempt attempt) {
        CommitDecider.Decision decision = decider.decide(attempt.copies());
        if (decision.commit() != null) commit(key, decision.commit(), attempt);
        for (String loser : decision.withdraw()) {
            dispatcher.copies.withdraw(key, attempt, loser, "withdrawn: the copy on " + attempt.winner() + " was committed",
                    "withdrawn before its create was confirmed");
        }
        if (attempt.commitConfirmed()) attempt.keepOnlyWinner();
    }

    private void commit(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        WorkerClusters clusters = dispatcher.clusters;
        Instant sentAt = clock.instant();
        if (attempt.commitSent(cluster, sentAt)) {
            DispatchStatusWriter.writeDispatch(state, key, new DispatchStatus(cluster, attempt.id(), RemoteWorkloadPhase.RESERVED, null,
                    null, "committing the reserved copy on cluster " + cluster, List.of()), null);
        }
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .addKeyValue("epoch", epoch).log("committing reserved copy");
        clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(
                calls.commit(key.namespace(), key.name(), attempt.id(), StatusJson.timestamp(sentAt), epoch), done -> {
                    if (dispatcher.attempts().get(key) != attempt || !cluster.equals(attempt.committedTo())) return;
                    if (done.succeeded()) {
                        confirmed(key, cluster, attempt);
                    } else if (ClusterCalls.isAnswer(done.cause())) {
                        refused(key, cluster, attempt, done.cause());
                    } else {
                        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                                .log("commit unanswered, sent again later: " + done.cause().getMessage());
                    }
                }));
    }

    private void confirmed(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        attempt.commitConfirmedBy(cluster);
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("reserved copy committed; withdrawing the others");
        act(key, attempt);
    }

    private void refused(WorkloadKey key, String cluster, DispatchAttempt attempt, Throwable cause) {
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("commit refused, another reservation may win: " + cause.getMessage());
        attempt.commitRefused(cluster);
        if (attempt.clusters().isEmpty()) {
            dispatcher.lastCopyGone(key, attempt);
            dispatcher.reconcile();
        } else {
            act(key, attempt);
        }
    }
}
