package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.LeaseRenewalDecision;
import dev.berth.manager.dispatch.LeaseRenewalDecision.Answer;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the dispatch leases of the current attempts alive on their clusters, stamped with this
 * manager's fencing epoch: sends the renewals {@link LeaseRenewalDecision} finds due and hands it their
 * answers. State thread only; the calls answer back on it.
 */
final class LeaseRenewals {
    private static final Logger log = LoggerFactory.getLogger(LeaseRenewals.class);

    private final DispatchController dispatcher;
    private final Clock clock;
    private final long epoch;
    private final LeaseRenewalDecision decision;

    LeaseRenewals(DispatchController dispatcher, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.epoch = epoch;
        this.decision = new LeaseRenewalDecision(dispatcher.failover::keepRenewing, cluster -> dispatcher.clusters.calls(cluster).isPresent());
    }

    /**
     * Renews the lease (and raises the epoch) of every current attempt. Called every leaseDuration/3.
     * On a lost cluster only while a blip could still be passing (a frozen agent that wakes up after
     * workerLostTimeout must find its leases expired); never for an attempt being drained (its lease
     * was expired on purpose).
     */
    void renewAll() {
        send(decision.due(dispatcher.attempts(), DispatchAttempt::clusters, clock.instant()));
    }

    /**
     * Renews again, at once, every lease whose latest renewal failed (a timeout or a brief error of
     * the cluster): a transient failure must not wait a whole renewal interval. Called every poll.
     */
    void retryFailed() {
        send(decision.due(dispatcher.attempts(), DispatchAttempt::renewalsToRetry, clock.instant()));
    }

    private void send(List<LeaseRenewalDecision.Renewal> renewals) {
        WorkerClusters clusters = dispatcher.clusters;
        for (LeaseRenewalDecision.Renewal renewal : renewals) {
            WorkloadKey key = renewal.key();
            String cluster = renewal.cluster();
            DispatchAttempt attempt = renewal.attempt();
            clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(
                    calls.renew(key.namespace(), key.name(), StatusJson.timestamp(renewal.stamp()), epoch), done -> {
                        Answer answer = done.succeeded() ? Answer.RENEWED
                                : ClusterCalls.isNotFound(done.cause()) ? Answer.NO_COPY : Answer.FAILED;
                        decision.answered(attempt, cluster, answer);
                        if (answer == Answer.FAILED) {
                            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                                    .log("lease renewal failed, retried at the next poll: " + done.cause().getMessage());
                        }
                    }));
        }
    }

    /**
     * A new leader's first listing of a cluster finds its attempts at an older epoch: renew them with
     * this epoch at once, not at the next renewal period, so the agent refuses the deposed leader's
     * writes from now on. Same exceptions as {@link #renewAll()}: not while draining or lost.
     */
    void stampEpochNow(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        decision.stampEpoch(key, cluster, attempt, clock.instant()).ifPresent(stamp -> dispatcher.clusters.calls(cluster)
                .ifPresent(calls -> calls.renew(key.namespace(), key.name(), StatusJson.timestamp(stamp.stamp()), epoch)
                        .onFailure(e -> log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster)
                                .addKeyValue("attempt", attempt.id()).addKeyValue("epoch", epoch)
                                .log("stamping the new epoch failed: " + e.getMessage()))));
    }
}
