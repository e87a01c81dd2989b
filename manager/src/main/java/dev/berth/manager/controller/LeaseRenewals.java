package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the dispatch leases of the current attempts alive on their clusters, stamped with this
 * manager's fencing epoch. State thread only; the calls answer back on it.
 */
final class LeaseRenewals {
    private static final Logger log = LoggerFactory.getLogger(LeaseRenewals.class);

    private final DispatchController dispatcher;
    private final Clock clock;
    private final long epoch;

    LeaseRenewals(DispatchController dispatcher, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.epoch = epoch;
    }

    /**
     * Renews the lease (and raises the epoch) of every current attempt. Called every leaseDuration/3.
     * On a lost cluster only while a blip could still be passing (a frozen agent that wakes up after
     * workerLostTimeout must find its leases expired); never for an attempt being drained (its lease
     * was expired on purpose).
     */
    void renewAll() {
        renewOn(attempt -> attempt.clusters());
    }

    /**
     * Renews again, at once, every lease whose latest renewal failed (a timeout or a brief error of
     * the cluster): a transient failure must not wait a whole renewal interval. Called every poll.
     */
    void retryFailed() {
        renewOn(DispatchAttempt::renewalsToRetry);
    }

    /** Renews every current attempt on the clusters {@code where} picks, all with one renew time. */
    private void renewOn(Function<DispatchAttempt, Collection<String>> where) {
        WorkerClusters clusters = dispatcher.clusters;
        Instant stamp = clock.instant();
        dispatcher.attempts().forEach((key, attempt) -> {
            for (String cluster : List.copyOf(where.apply(attempt))) renew(clusters, key, attempt, cluster, stamp);
        });
    }

    private void renew(WorkerClusters clusters, WorkloadKey key, DispatchAttempt attempt, String cluster, Instant stamp) {
        if (attempt.draining() || attempt.withdrawing() || attempt.renewing(cluster) || !attempt.clusters().contains(cluster)) return;
        if (!dispatcher.failover.keepRenewing(cluster, attempt)) return;
        clusters.calls(cluster).ifPresent(calls -> {
            attempt.renewalStarted(cluster, stamp);
            clusters.onStateThread(calls.renew(key.namespace(), key.name(), StatusJson.timestamp(stamp), epoch), done -> {
                if (done.succeeded()) {
                    attempt.renewalSucceeded(cluster);
                    return;
                }
                if (ClusterCalls.isNotFound(done.cause())) {
                    attempt.renewalFoundNoCopy(cluster);
                    return;
                }
                attempt.renewalFailed(cluster);
                log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                        .log("lease renewal failed, retried at the next poll: " + done.cause().getMessage());
            });
        });
    }

    /**
     * A new leader's first listing of a cluster finds its attempts at an older epoch: renew them with
     * this epoch at once, not at the next renewal period, so the agent refuses the deposed leader's
     * writes from now on. Same exceptions as {@link #renewAll()}: not while draining or lost.
     */
    void stampEpochNow(WorkloadKey key, String cluster, DispatchAttempt attempt) {
        if (attempt.draining() || attempt.withdrawing() || !dispatcher.failover.keepRenewing(cluster, attempt)) return;
        Instant stamp = clock.instant();
        attempt.stamped(cluster, stamp);
        dispatcher.clusters.calls(cluster).ifPresent(calls -> calls.renew(key.namespace(), key.name(), StatusJson.timestamp(stamp), epoch)
                .onFailure(e -> log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster)
                        .addKeyValue("attempt", attempt.id()).addKeyValue("epoch", epoch)
                        .log("stamping the new epoch failed: " + e.getMessage())));
    }
}
