package dev.berth.manager.controller;

import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Copies of an attempt that must not run: each is deleted on its cluster, and where the cluster never confirmed
 * its create, the workload is held until the copy's lease has surely run out, since the create may still land
 * there (the agent then refuses to start it). Abandoned attempts, two-phase losers, unnominated reservations and
 * single-phase losers all go through {@link #withdraw}. State thread only.
 */
final class CopyWithdrawals {
    private final DispatchController dispatcher;
    private final Clock clock;
    private final Duration leaseMargin;
    private final long epoch;

    CopyWithdrawals(DispatchController dispatcher, Clock clock, Duration leaseMargin, long epoch) {
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.leaseMargin = leaseMargin;
        this.epoch = epoch;
    }

    /** Deletes the attempt's copy on the cluster ({@code deleteWhy}); a copy whose create was never confirmed also holds the workload ({@code holdWhy}). */
    void withdraw(WorkloadKey key, DispatchAttempt attempt, String cluster, String deleteWhy, String holdWhy) {
        dispatcher.deleteRemote(key, cluster, attempt.id(), deleteWhy);
        if (!attempt.isConfirmed(cluster)) holdUntilLeaseRunsOut(key, attempt, cluster, holdWhy);
    }

    /**
     * The attempt's copy on the cluster was dropped without the cluster ever acknowledging it: its create
     * may still arrive, with the lease it was stamped with. The workload is not dispatched again before
     * that lease (or a later renewal sent there) has surely run out; then the agent refuses to start it.
     */
    void holdUntilLeaseRunsOut(WorkloadKey key, DispatchAttempt attempt, String cluster, String why) {
        Instant leaseGoneAt = attempt.leaseGoneAt(cluster, leaseMargin, clock.instant());
        long createEpochAtMost = attempt.sentCreateTo(cluster) ? epoch : epoch - 1;
        OldAttemptFences fences = dispatcher.failover.fences;
        if (fences.raiseUnconfirmed(key, cluster, attempt.id(), leaseGoneAt, createEpochAtMost, why)) {
            dispatcher.failover.events.warning(cluster, Conditions.Reasons.DISPATCH_UNCONFIRMED, "workload " + key + ": " + fences.hold(key));
        }
    }
}
