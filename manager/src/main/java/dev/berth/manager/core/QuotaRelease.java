package dev.berth.manager.core;

import dev.berth.protocol.Conditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes quota back from a workload: released from the quota cache and its ClusterQueue's reserved
 * set, and, for an eviction, the Evicted condition written and the workload requeued (Kueue's
 * requeue order: the eviction time) unless it is inactive or told not to be. A workload whose copy
 * runs on a worker cluster keeps its quota after the eviction is recorded, until the copy is confirmed
 * stopped ({@link #copyStopped}): Kueue's job reconciler likewise unsets QuotaReserved only once the
 * evicted job is no longer active, and the preemptor waits ("Pending the preemption") meanwhile.
 */
final class QuotaRelease {
    private static final Logger log = LoggerFactory.getLogger(QuotaRelease.class);

    private final SchedulerState state;
    private final QueueManager queues;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    private final AdmissionListener listener;
    private long requeueSequence;
    private final RunningCopies runningCopies;

    QuotaRelease(SchedulerState state, QueueManager queues, WorkloadStatusWriter writer, QueueStatusReporter queueStatus,
                 AdmissionListener listener, RunningCopies runningCopies) {
        this.state = state;
        this.runningCopies = runningCopies;
        this.queues = queues;
        this.writer = writer;
        this.queueStatus = queueStatus;
        this.listener = listener;
    }

    /**
     * Records the eviction; releases quota at once unless the workload's copy runs on a worker cluster,
     * in which case Evicted turns True with QuotaReserved still True, and {@link #copyStopped} releases
     * later. An eviction already waiting for its copy is left as it is.
     */
    void evict(WorkloadEntry entry, String reason, String message, String preemptionReason, boolean requeue) {
        if (entry.awaitingStop()) return;
        if (!entry.holdsQuota() || !runningCopies.hasRunningCopy(entry.key())) {
            evictReleasing(entry, reason, message, preemptionReason, requeue);
            return;
        }
        String queue = entry.admission.clusterQueue();
        state.evictionPending(entry, new PendingEviction(reason, message, preemptionReason, requeue));
        writer.write(entry, WorkloadConditions.evictionPending(entry.status, reason, message, preemptionReason, writer.now()));
        reportEviction(entry, queue, reason);
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue).addKeyValue("reason", reason)
                .log("workload evicted; its quota is kept until its copy on the worker cluster is confirmed stopped: " + message);
    }

    /**
     * The evicted workload's remote copy is confirmed stopped (or was never there): its quota is released
     * now and it is requeued as its eviction said. Nothing for a workload not waiting for a stop.
     */
    void copyStopped(WorkloadEntry entry) {
        if (!entry.awaitingStop()) return;
        PendingEviction pending = entry.pendingEviction;
        release(entry);
        String queue = entry.clusterQueue;
        requeueAfterEviction(entry, pending.reason(), pending.message(), pending.preemptionReason(), pending.requeue());
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue).addKeyValue("reason", pending.reason())
                .log("evicted workload's copy stopped: quota released");
    }

    /** Releases quota and records the eviction at once; a requeued workload goes back to its queue. */
    void evictReleasing(WorkloadEntry entry, String reason, String message, String preemptionReason, boolean requeue) {
        String queue = entry.admission == null ? entry.clusterQueue : entry.admission.clusterQueue();
        release(entry);
        requeueAfterEviction(entry, reason, message, preemptionReason, requeue);
        reportEviction(entry, queue, reason);
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                .addKeyValue("reason", reason).log("workload evicted: " + message);
    }

    private void requeueAfterEviction(WorkloadEntry entry, String reason, String message, String preemptionReason, boolean requeue) {
        entry.queueOrderMillis = writer.millis();
        entry.requeueSequence = ++requeueSequence;
        WorkloadStatus podsGone = PodsReadyConditions.afterEviction(entry.status, writer.now());
        writer.write(entry, WorkloadConditions.evicted(podsGone, reason, message, preemptionReason, requeue, writer.now()));
        if (requeue && entry.active) queues.enqueue(entry);
        queueStatus.touched(entry);
    }

    /**
     * Kueue counts a deactivation under reason Deactivated with the deactivation's cause as
     * underlying_cause (DeactivatedDueToMaximumExecutionTimeExceeded is Deactivated /
     * MaximumExecutionTimeExceeded); every other reason is its own root cause.
     */
    private void reportEviction(WorkloadEntry entry, String queue, String reason) {
        String deactivatedDueTo = Conditions.Reasons.DEACTIVATED + "DueTo";
        if (reason.startsWith(deactivatedDueTo)) {
            listener.evicted(WorkloadMetricLabels.of(entry, queue), Conditions.Reasons.DEACTIVATED, reason.substring(deactivatedDueTo.length()));
        } else {
            listener.evicted(WorkloadMetricLabels.of(entry, queue), reason, "");
        }
    }

    /** For kueue_finished_workloads_total: Kueue labels it with the admitting ClusterQueue, "" when there was none. */
    void reportFinished(WorkloadEntry entry, String admittingQueue) {
        listener.finished(WorkloadMetricLabels.of(entry, admittingQueue));
    }

    /** Gives the workload's quota back to its ClusterQueue; nothing when it holds none. */
    void release(WorkloadEntry entry) {
        if (!entry.holdsQuota()) return;
        String queue = entry.admission.clusterQueue();
        if (state.quota.hasClusterQueue(queue)) state.quota.removeUsage(queue, entry.usage);
        state.released(entry, queue);
        entry.admission = null;
        entry.usage = null;
        entry.pendingEviction = null;
        state.capacityFreed(queue);
        queueStatus.touched(entry);
        entry.clusterQueue = queue;
    }
}
