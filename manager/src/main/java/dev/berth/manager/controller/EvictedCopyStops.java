package dev.berth.manager.controller;

import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.StoppingCopies;
import dev.berth.manager.dispatch.WorkloadReconcile;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 20, rule 4: a workload evicted while its copy runs on a worker cluster (Evicted=True,
 * QuotaReserved=True) keeps its quota until that copy is confirmed stopped. The attempt is retired (no
 * more lease renewals), and a fence is raised per cluster, the one the lost-agent path uses: every
 * poll the attempt's RemoteWorkload, Jobs and pods are deleted under its attempt id and its pods
 * listed, until two listings find none live (or the cluster is unreachable past the lease plus margin;
 * a create never confirmed waits out its lease). Then the controller releases the quota and requeues
 * the workload, and only then can a preemptor be admitted on it. State thread only.
 */
final class EvictedCopyStops {
    private static final Logger log = LoggerFactory.getLogger(EvictedCopyStops.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final DispatchOptions options;
    final StoppingCopies copies = new StoppingCopies();

    EvictedCopyStops(DispatchController dispatcher, ManagerState state, Clock clock, DispatchOptions options) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.options = options;
    }

    /** Evicted but still holding quota: its copy is being stopped, and the quota waits for that. */
    static boolean awaitingStop(WorkloadStatus status) {
        return status != null && status.isTrue(Conditions.QUOTA_RESERVED) && status.isTrue(Conditions.EVICTED)
                && !status.isTrue(Conditions.FINISHED);
    }

    /** Where admission says the workload stands, for {@link WorkloadReconcile}. */
    static WorkloadReconcile.Standing standing(WorkloadStatus status) {
        if (status == null) return WorkloadReconcile.Standing.DELETED;
        if (awaitingStop(status)) return WorkloadReconcile.Standing.AWAITING_COPY_STOP;
        boolean holding = status.isTrue(Conditions.QUOTA_RESERVED) && !status.isTrue(Conditions.FINISHED) && !status.isTrue(Conditions.EVICTED);
        return holding ? WorkloadReconcile.Standing.HOLDING_QUOTA : WorkloadReconcile.Standing.NOT_HOLDING_QUOTA;
    }

    /** Asks the attempt's copies to stop (when there is one still current), and releases the quota once nothing holds it. */
    void reconcile(WorkloadKey key, DispatchAttempt attempt) {
        if (attempt != null) stop(key, attempt);
        String hold = dispatcher.failover.fences.hold(key);
        if (!copies.mayReleaseQuota(key, hold)) return;
        log.atInfo().addKeyValue("workload", key).log("evicted workload's remote copy is stopped: releasing its quota");
        state.controller.copyStopped(key);
    }

    private void stop(WorkloadKey key, DispatchAttempt attempt) {
        dispatcher.retire(key, attempt);
        copies.stopRequested(key, attempt.id(), attempt.clusters(), attempt.request());
        for (String cluster : attempt.clusters()) {
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("workload evicted: stopping its remote copy before its quota is released");
            if (attempt.isConfirmed(cluster)) {
                dispatcher.failover.fences.raise(key, cluster, attempt.id(),
                        attempt.leaseGoneAt(cluster, options.failover().leaseMargin(), clock.instant()), dispatcher.failover.agentLost(cluster));
            } else {
                dispatcher.deleteRemote(key, cluster, attempt.id(), "workload evicted");
                dispatcher.copies.holdUntilLeaseRunsOut(key, attempt, cluster, "evicted before its create was confirmed");
            }
        }
        DispatchStatusWriter.writeDispatch(state, key, null, null);
    }
}
