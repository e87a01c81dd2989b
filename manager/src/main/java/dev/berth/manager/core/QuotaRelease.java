package dev.berth.manager.core;

import dev.berth.protocol.Conditions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes quota back from a workload: released from the quota cache and its ClusterQueue's reserved
 * set, and, for an eviction, the Evicted condition written and the workload requeued (Kueue's
 * requeue order: the eviction time) unless it is inactive or told not to be.
 */
final class QuotaRelease {
    private static final Logger log = LoggerFactory.getLogger(QuotaRelease.class);

    private final ClusterState state;
    private final QueueManager queues;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    private final AdmissionListener listener;
    private long requeueSequence;

    QuotaRelease(ClusterState state, QueueManager queues, WorkloadStatusWriter writer, QueueStatusReporter queueStatus,
                 AdmissionListener listener) {
        this.state = state;
        this.queues = queues;
        this.writer = writer;
        this.queueStatus = queueStatus;
        this.listener = listener;
    }

    /** Releases quota and records the eviction; a requeued workload goes back to its queue. */
    void evict(WorkloadEntry entry, String reason, String message, String preemptionReason, boolean requeue) {
        String queue = entry.admission == null ? entry.clusterQueue : entry.admission.clusterQueue();
        release(entry);
        entry.queueOrderMillis = writer.millis();
        entry.requeueSequence = ++requeueSequence;
        WorkloadStatus podsGone = PodsReadyConditions.afterEviction(entry.status, writer.now());
        writer.write(entry, WorkloadConditions.evicted(podsGone, reason, message, preemptionReason, requeue, writer.now()));
        reportEviction(entry, queue, reason);
        if (requeue && entry.active) queues.enqueue(entry);
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                .addKeyValue("reason", reason).log("workload evicted: " + message);
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
        state.capacityFreed(queue);
        queueStatus.touched(entry);
        entry.clusterQueue = queue;
    }
}
