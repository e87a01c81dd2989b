package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the creates of a dispatch attempt to its clusters once the attempt's record is durable (a new
 * leader recovers every attempt a worker may hold from it), and acts on each answer on the state thread:
 * a confirmed copy is noted; a copy that failed is dropped from the attempt, held until its lease has
 * run out when the cluster may still get it, and a workload left with no copy is placed again; a copy
 * of an attempt abandoned meanwhile is deleted, and its fence lifted once the answer came.
 */
final class RemoteCreates {
    private static final Logger log = LoggerFactory.getLogger(RemoteCreates.class);

    private final DispatchController dispatcher;
    private final Clock clock;
    private final long epoch;
    private final ObjectStore store;
    /** Per workload, its creates refused (4xx) in a row since one was acknowledged: the backoff before it is placed again. */
    private final Map<WorkloadKey, Integer> refusals = new HashMap<>();

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
            store.whenDurable(() -> clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(calls.create(remote), created -> {
                boolean answered = created.succeeded() || ClusterCalls.isAnswer(created.cause());
                if (created.succeeded()) {
                    attempt.createAnswered(cluster, clock.instant());
                    refusals.remove(key);
                }
                if (dispatcher.attempts().get(key) != attempt) {
                    abandonedMeanwhile(key, attempt, cluster, created.succeeded(), answered);
                } else if (created.failed()) {
                    failed(key, attempt, cluster, answered, created.cause());
                }
            })));
        }
    }

    /** abandon() held the workload until the create's answer came: the copy is deleted, and an answer lifts the fence. */
    private void abandonedMeanwhile(WorkloadKey key, DispatchAttempt attempt, String cluster, boolean created, boolean answered) {
        if (created) dispatcher.deleteRemote(key, cluster, attempt.id(), "abandoned while its create was in flight");
        if (answered && dispatcher.failover.fences.createAnswered(key, cluster, attempt.id())) {
            dispatcher.fenceChanged(key);
            dispatcher.reconcile();
        }
    }

    private void failed(WorkloadKey key, DispatchAttempt attempt, String cluster, boolean answered, Throwable cause) {
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("dispatch failed: " + cause.getMessage());
        attempt.dropCluster(cluster);
        if (!answered) dispatcher.copies.holdUntilLeaseRunsOut(key, attempt, cluster, "create unconfirmed (" + cause.getMessage() + ")");
        if (attempt.clusters().isEmpty() && answered) {
            dispatcher.lastCopyRefused(key, attempt, refusals.merge(key, 1, Integer::sum));
        } else if (attempt.clusters().isEmpty()) {
            dispatcher.lastCopyGone(key, attempt);
            dispatcher.reconcile();
        }
    }
}
