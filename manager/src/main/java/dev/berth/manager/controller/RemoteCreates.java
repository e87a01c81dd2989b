package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.CreateAnswers;
import dev.berth.manager.dispatch.CreateAnswers.Outcome;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the creates of a dispatch attempt to its clusters once the attempt's record is durable (a new
 * leader recovers every attempt a worker may hold from it), and runs on the state thread what each answer
 * means ({@link CreateAnswers}: the pure decision, which also applies the attempt's transitions): delete a
 * copy of an attempt abandoned meanwhile, lift the fence that waited for the answer, hold the workload until
 * an unanswered create's lease has run out, place the workload again when its last copy failed.
 */
final class RemoteCreates {
    private static final Logger log = LoggerFactory.getLogger(RemoteCreates.class);

    private final DispatchController dispatcher;
    private final Clock clock;
    private final long epoch;
    private final ObjectStore store;
    private final CreateAnswers answers = new CreateAnswers();

    RemoteCreates(DispatchController dispatcher, ObjectStore store, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.store = store;
        this.clock = clock;
        this.epoch = epoch;
    }

    /** Sends the attempt's copy to each target cluster, which join the attempt at once. */
    void send(WorkloadKey key, DispatchAttempt attempt, RemoteWorkload remote, List<String> targets) {
        WorkerClusters clusters = dispatcher.clusters;
        for (String cluster : targets) {
            attempt.createSent(cluster, clock.instant());
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .addKeyValue("epoch", epoch).addKeyValue("attemptNumber", attempt.number()).log("dispatching workload");
            // only once the attempt's record is durable (the caller wrote it): a leader that dies before sends nothing
            store.whenDurable(() -> clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(calls.create(remote),
                    created -> answered(key, attempt, cluster, created.succeeded() ? Outcome.CREATED
                            : ClusterCalls.isAnswer(created.cause()) ? Outcome.REFUSED : Outcome.UNANSWERED, created.cause()))));
        }
    }

    private void answered(WorkloadKey key, DispatchAttempt attempt, String cluster, Outcome outcome, Throwable cause) {
        boolean current = dispatcher.attempts().isCurrent(key, attempt);
        if (current && outcome != Outcome.CREATED) {
            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("dispatch failed: " + cause.getMessage());
        }
        String why = cause == null ? null : cause.getMessage();
        for (CreateAnswers.Command command : answers.answered(key, attempt, current, cluster, outcome, why, clock.instant())) {
            if (command instanceof CreateAnswers.DeleteCopy delete) {
                dispatcher.deleteRemote(key, delete.cluster(), attempt.id(), delete.why());
            } else if (command instanceof CreateAnswers.LiftCreateFence lift) {
                if (dispatcher.failover.fences.createAnswered(key, lift.cluster(), attempt.id())) {
                    dispatcher.fenceChanged(key);
                    dispatcher.reconcile();
                }
            } else if (command instanceof CreateAnswers.HoldUntilLeaseRunsOut hold) {
                dispatcher.copies.holdUntilLeaseRunsOut(key, attempt, hold.cluster(), hold.why());
            } else if (command instanceof CreateAnswers.PlaceAgainAfterBackoff backoff) {
                dispatcher.lastCopyRefused(key, attempt, backoff.refusalsInARow());
            } else if (command instanceof CreateAnswers.PlaceAgainNow) {
                dispatcher.lastCopyGone(key, attempt);
                dispatcher.reconcile();
            }
        }
    }
}
