package dev.berth.manager.core;

import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue's waitForPodsReady on the manager ({@link PodsReadyPolicy}): keeps each workload's PodsReady
 * condition from what its worker reports, evicts an admitted workload whose pods are not all ready in
 * time (PodsReadyTimeout, requeued after a backoff, deactivated after backoffLimitCount requeues), and,
 * with blockAdmission, holds back every admission while a workload that holds quota, in any
 * ClusterQueue, does not have PodsReady=True (Kueue's cache-wide WorkloadsNotReady rule).
 */
final class WaitForPodsReady {
    private static final Logger log = LoggerFactory.getLogger(WaitForPodsReady.class);
    /** Kueue's QuotaReserved=False message while blockAdmission holds a workload back. */
    static final String BLOCKED_MESSAGE = "waiting for all admitted workloads to be in PodsReady condition";

    private final PodsReadyPolicy policy;
    private final SchedulerState state;
    private final QueueManager queues;
    private final QuotaRelease quotaRelease;
    private final WorkloadStatusWriter writer;
    /** Set when blockAdmission parked a workload; the parked ones are looked at again once nothing blocks. */
    private boolean heldBack;

    WaitForPodsReady(PodsReadyPolicy policy, SchedulerState state, QueueManager queues, QuotaRelease quotaRelease,
                     WorkloadStatusWriter writer) {
        this.policy = policy;
        this.state = state;
        this.queues = queues;
        this.quotaRelease = quotaRelease;
        this.writer = writer;
    }

    /** The worker reported whether all the workload's admitted pods are ready: PodsReady follows. */
    void podsReported(WorkloadKey key, boolean allReady) {
        if (!policy.enable()) return;
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished || !entry.holdsQuota()) return;
        Condition next = PodsReadyConditions.next(entry.status, entry.isAdmitted(), allReady, writer.now());
        WorkloadStatus updated = PodsReadyConditions.with(entry.status, next);
        if (updated == entry.status) return;
        writer.write(entry, updated);
        log.atInfo().addKeyValue("workload", key).addKeyValue("reason", next.reason()).log("PodsReady is " + next.status());
    }

    /** Evicts (or, past the requeuing limit, deactivates) every admitted workload whose PodsReady wait ran out. */
    void evictTimedOut() {
        if (!policy.enable()) return;
        Instant now = writer.now();
        List<WorkloadEntry> timedOut = new ArrayList<>();
        for (Set<WorkloadEntry> reserved : state.reservedByQueue.values()) {
            for (WorkloadEntry entry : reserved) {
                PodsReadyTimeout.Wait wait = PodsReadyTimeout.waiting(policy, entry.status, now);
                if (wait != null && wait.expired() && !entry.awaitingStop()) timedOut.add(entry);
            }
        }
        for (WorkloadEntry entry : timedOut) {
            if (PodsReadyTimeout.exceedsRequeuingLimit(policy, entry.status)) {
                entry.active = false;
                entry.status = entry.status.withRequeueAt(null); // Kueue clears the backoff of a deactivated workload
                quotaRelease.evict(entry, PodsReadyTimeout.DEACTIVATED_REASON, PodsReadyTimeout.DEACTIVATED_MESSAGE, null, false);
                continue;
            }
            entry.status = entry.status.withRequeueAt(PodsReadyTimeout.requeueAt(policy, entry.status, now));
            quotaRelease.evict(entry, Reasons.PODS_READY_TIMEOUT, PodsReadyTimeout.evictedMessage(entry.key().toString()), null, true);
            // a workload whose copy is still stopping is queued when its quota is released, in eviction order
            if (policy.requeuingStrategy().timestamp() == PodsReadyPolicy.Timestamp.CREATION && !entry.awaitingStop()) {
                queues.unqueue(entry);
                entry.queueOrderMillis = entry.request.creationMillis();
                queues.enqueue(entry);
            }
        }
    }

    /**
     * blockAdmission: true, and the workload's QuotaReserved=False says why, while a workload holding
     * quota lacks PodsReady=True; the caller parks the workload until {@link #wakeHeldBack} lets it go.
     */
    boolean holdsBack(WorkloadEntry entry) {
        if (!policy.blocks() || !someHolderNotReady()) return false;
        heldBack = true;
        Condition current = entry.status.condition(Conditions.QUOTA_RESERVED);
        if (current == null || current.status() || !BLOCKED_MESSAGE.equals(current.message())) {
            writer.write(entry, PodsReadyConditions.with(entry.status, new Condition(Conditions.QUOTA_RESERVED, false,
                    Reasons.WAITING_FOR_PODS_READY, BLOCKED_MESSAGE, writer.now())));
        }
        return true;
    }

    /** Once no holder is unready any more, the workloads blockAdmission parked, in every cohort tree, get another look. */
    void wakeHeldBack() {
        if (!heldBack || someHolderNotReady()) return;
        heldBack = false;
        for (String clusterQueue : List.copyOf(state.pending.keySet())) state.capacityFreed(clusterQueue);
    }

    private boolean someHolderNotReady() {
        for (Set<WorkloadEntry> reserved : state.reservedByQueue.values()) {
            for (WorkloadEntry entry : reserved) {
                if (!entry.status.isTrue(Conditions.PODS_READY)) return true;
            }
        }
        return false;
    }
}
