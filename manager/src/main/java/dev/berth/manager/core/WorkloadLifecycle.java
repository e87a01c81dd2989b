package dev.berth.manager.core;

import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A workload's life outside the scheduling cycle, as Kueue's workload controller sees it: submitted
 * (or restored with the admission it had), finished, deleted, deactivated and reactivated, evicted
 * by a stop policy or by something outside the scheduler, deactivated when its maximum execution
 * time runs out, and deleted when finished longer than the retention.
 */
final class WorkloadLifecycle {
    private static final Logger log = LoggerFactory.getLogger(WorkloadLifecycle.class);

    private final SchedulerState state;
    private final QueueManager queues;
    private final QuotaRelease quotaRelease;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    private final StatusSink sink;
    private final Duration retainFinishedFor;
    private final DeactivatedRetention retainDeactivated;
    private final ArrayDeque<WorkloadEntry> finishedInOrder = new ArrayDeque<>();

    WorkloadLifecycle(SchedulerState state, QueueManager queues, QuotaRelease quotaRelease, WorkloadStatusWriter writer,
                      QueueStatusReporter queueStatus, StatusSink sink, Duration retainFinishedFor,
                      DeactivatedRetention retainDeactivated) {
        this.state = state;
        this.queues = queues;
        this.quotaRelease = quotaRelease;
        this.writer = writer;
        this.queueStatus = queueStatus;
        this.sink = sink;
        this.retainFinishedFor = retainFinishedFor;
        this.retainDeactivated = retainDeactivated;
    }

    /** A new workload, or a restored one with the status it had (re-adopts its admission). */
    void submit(WorkloadRequest request, boolean active, WorkloadStatus status) {
        WorkloadEntry existing = state.workloads.get(request.key());
        if (existing != null) {
            if (existing.holdsQuota() || existing.finished) {
                existing.request = existing.request.withMaximumExecutionTimeSeconds(request.maximumExecutionTimeSeconds());
                existing.active = active;
                return;
            }
            queues.unqueue(existing);
            existing.request = request;
            existing.active = active;
            queues.enqueue(existing);
            return;
        }
        WorkloadEntry entry = new WorkloadEntry(request, active, status == null ? WorkloadStatus.EMPTY : status);
        state.workloads.put(request.key(), entry);
        if (entry.status.isTrue(Conditions.FINISHED)) {
            entry.finished = true;
            Condition finished = entry.status.condition(Conditions.FINISHED);
            entry.finishedAtMillis = finished.lastTransitionTime() == null ? writer.millis() : finished.lastTransitionTime().toEpochMilli();
            finishedInOrder.add(entry);
        } else if (entry.status.admission() != null && entry.status.isTrue(Conditions.QUOTA_RESERVED)) {
            joinLocalQueue(entry);
            readopt(entry);
        } else {
            joinLocalQueue(entry);
            queues.enqueue(entry);
        }
        queueStatus.touched(entry);
    }

    private void readopt(WorkloadEntry entry) {
        entry.admission = entry.status.admission();
        entry.usage = entry.admission.usage();
        entry.clusterQueue = entry.admission.clusterQueue();
        Condition reserved = entry.status.condition(Conditions.QUOTA_RESERVED);
        entry.reservedAtMillis = reserved.lastTransitionTime() == null ? writer.millis() : reserved.lastTransitionTime().toEpochMilli();
        state.reserved(entry, entry.clusterQueue);
        if (state.quota.hasClusterQueue(entry.clusterQueue)) state.quota.addUsage(entry.clusterQueue, entry.usage);
        queues.structureChanged();
        Condition evicted = entry.status.condition(Conditions.EVICTED);
        if (evicted != null && evicted.status()) state.evictionPending(entry, PendingEviction.fromCondition(evicted, entry.active));
    }

    private void joinLocalQueue(WorkloadEntry entry) {
        state.unfinishedByLocalQueue.computeIfAbsent(entry.localQueueKey, k -> new LinkedHashSet<>()).add(entry);
    }

    private void leaveLocalQueue(WorkloadEntry entry) {
        Set<WorkloadEntry> inQueue = state.unfinishedByLocalQueue.get(entry.localQueueKey);
        if (inQueue == null) return;
        inQueue.remove(entry);
        if (inQueue.isEmpty()) state.unfinishedByLocalQueue.remove(entry.localQueueKey);
    }

    void delete(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.remove(key);
        if (entry == null) return;
        leaveLocalQueue(entry);
        finishedInOrder.remove(entry);
        queues.unqueue(entry);
        quotaRelease.release(entry);
        queueStatus.touched(entry);
    }

    void finish(WorkloadKey key, boolean succeeded, String reason, String message) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished) return;
        queues.unqueue(entry);
        String queue = entry.holdsQuota() ? entry.admission.clusterQueue() : entry.clusterQueue;
        quotaRelease.reportFinished(entry, entry.holdsQuota() ? queue : "");
        quotaRelease.release(entry);
        entry.clusterQueue = queue;
        entry.finished = true;
        leaveLocalQueue(entry);
        entry.finishedAtMillis = writer.millis();
        finishedInOrder.add(entry);
        writer.write(entry, WorkloadConditions.finished(entry.status, succeeded, reason, message, writer.now()));
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", key).addKeyValue("clusterQueue", queue)
                .addKeyValue("succeeded", succeeded).log("workload finished");
    }

    /**
     * Evicts a workload that holds quota, for a reason outside the scheduler (its worker cluster was
     * lost or drained): its quota is released and it is requeued. Nothing happens when it holds none.
     * Released at once: the dispatcher fences that cluster's copy itself.
     */
    void evict(WorkloadKey key, String reason, String message) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished || !entry.holdsQuota()) return;
        quotaRelease.evictReleasing(entry, reason, message, null, true);
    }

    /** The evicted workload's copy on its worker cluster is confirmed stopped: its quota is released now. */
    void copyStopped(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished) return;
        quotaRelease.copyStopped(entry);
    }

    void setActive(WorkloadKey key, boolean active) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished || entry.active == active) return;
        if (entry.awaitingStop()) {
            // the eviction waits for the copy to stop; it then requeues the workload only if active again
            entry.active = active;
            PendingEviction pending = entry.pendingEviction;
            entry.pendingEviction = new PendingEviction(pending.reason(), pending.message(), pending.preemptionReason(), active);
        } else if (!active) {
            entry.active = false;
            entry.status = entry.status.withRequeueAt(null); // Kueue clears the backoff of a deactivated workload
            if (entry.holdsQuota()) {
                quotaRelease.evict(entry, Reasons.DEACTIVATED, "The workload is deactivated", null, false);
            } else {
                queues.unqueue(entry);
                writer.write(entry, WorkloadConditions.pending(entry.status, "The workload is deactivated", writer.now()));
            }
        } else {
            entry.active = true;
            entry.queueOrderMillis = writer.millis();
            queues.enqueue(entry);
            writer.write(entry, entry.status);
        }
        queueStatus.touched(entry);
    }

    /** A ClusterQueue's stopPolicy became Hold (evicts what is not yet admitted) or HoldAndDrain (evicts all). */
    void clusterQueueStopped(String clusterQueue, StopPolicy policy) {
        if (!policy.stopsAdmission()) return;
        for (WorkloadEntry entry : List.copyOf(state.reservedByQueue.getOrDefault(clusterQueue, Set.of()))) {
            if (entry.awaitingStop()) continue;
            if (policy == StopPolicy.HOLD_AND_DRAIN || !entry.isAdmitted()) {
                quotaRelease.evict(entry, Reasons.CLUSTER_QUEUE_STOPPED, "The ClusterQueue is stopped", null, true);
            }
        }
    }

    /** A LocalQueue's stopPolicy became Hold or HoldAndDrain: the same for the workloads submitted through it. */
    void localQueueStopped(LocalQueueSpec spec) {
        if (!spec.stopPolicy().stopsAdmission()) return;
        for (WorkloadEntry entry : List.copyOf(state.unfinishedByLocalQueue.getOrDefault(spec.key(), Set.of()))) {
            if (!entry.holdsQuota() || entry.awaitingStop()) continue;
            if (spec.stopPolicy() == StopPolicy.HOLD_AND_DRAIN || !entry.isAdmitted()) {
                quotaRelease.evict(entry, Reasons.LOCAL_QUEUE_STOPPED, "The LocalQueue is stopped", null, true);
            }
        }
    }

    /** Deactivates every admitted workload whose maximum execution time ran out (see {@link ExecutionTimeLimit}). */
    void deactivateOverdue() {
        Instant now = writer.now();
        List<WorkloadEntry> overdue = new ArrayList<>();
        for (Set<WorkloadEntry> reserved : state.reservedByQueue.values()) {
            for (WorkloadEntry entry : reserved) {
                if (!entry.awaitingStop() && ExecutionTimeLimit.exceeded(entry.request, entry.status, now)) overdue.add(entry);
            }
        }
        for (WorkloadEntry entry : overdue) {
            entry.active = false;
            quotaRelease.evict(entry, ExecutionTimeLimit.EVICTED_REASON, ExecutionTimeLimit.EVICTED_MESSAGE, null, false);
            writer.write(entry, entry.status.withAccumulatedPastExecutionTimeSeconds(null));
        }
    }

    /** Hands the workloads finished longer than the retention to the sink for deletion (objectRetentionPolicies). */
    void expireFinished() {
        expireDeactivated();
        if (retainFinishedFor == null) return;
        long cutoff = writer.millis() - retainFinishedFor.toMillis();
        while (!finishedInOrder.isEmpty() && finishedInOrder.peekFirst().finishedAtMillis <= cutoff) {
            sink.workloadExpired(finishedInOrder.pollFirst().key());
        }
    }

    /** Hands the workloads Kueue's rules deactivated longer than afterDeactivatedByKueue to the sink for deletion. */
    private void expireDeactivated() {
        if (retainDeactivated.afterDeactivatedByKueue() == null) return;
        long now = writer.millis();
        List<WorkloadKey> expired = state.workloads.values().stream()
                .filter(entry -> retainDeactivated.expired(entry.active, entry.status, now)).map(WorkloadEntry::key).toList();
        expired.forEach(sink::deactivatedWorkloadExpired);
    }
}
