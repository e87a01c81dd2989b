package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where each waiting workload sits, the counterpart of Kueue's queue manager: in its ClusterQueue's
 * {@link PendingQueue}, among the unplaced (no LocalQueue, no ClusterQueue, a stopped or inactive
 * queue: pending with the reason written), or backing off until status.requeueState.requeueAt.
 * A change of queue objects marks the structure changed; the next pass rebuilds the queues.
 */
final class QueueManager {
    private final SchedulerState state;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    /** Evicted workloads waiting out status.requeueState.requeueAt before they are queued again. */
    private final Set<WorkloadEntry> backingOff = new LinkedHashSet<>();
    private boolean structureChanged = true;

    QueueManager(SchedulerState state, WorkloadStatusWriter writer, QueueStatusReporter queueStatus) {
        this.state = state;
        this.writer = writer;
        this.queueStatus = queueStatus;
    }

    /** A flavor, queue, cohort, namespace or check changed: the next pass rebuilds quota and queues first. */
    void structureChanged() {
        structureChanged = true;
    }

    void enqueue(WorkloadEntry entry) {
        if (!entry.active || entry.finished || entry.holdsQuota()) return;
        if (entry.status.requeueAt() != null && entry.status.requeueAt().isAfter(writer.now())) {
            backingOff.add(entry);
            return;
        }
        if (structureChanged) {
            state.unplaced.add(entry);
            return;
        }
        String unplaceable = null;
        LocalQueueSpec localQueue = state.localQueues.get(entry.localQueueKey);
        ClusterQueueSpec queue = localQueue == null ? null : state.clusterQueues.get(localQueue.clusterQueue());
        if (localQueue == null) {
            unplaceable = "LocalQueue " + entry.request.queueName() + " doesn't exist";
            entry.clusterQueue = null;
        } else if (queue == null) {
            unplaceable = "ClusterQueue " + localQueue.clusterQueue() + " doesn't exist";
            entry.clusterQueue = null;
        } else {
            entry.clusterQueue = queue.name();
            if (localQueue.stopPolicy().stopsAdmission()) {
                unplaceable = "LocalQueue " + localQueue.name() + " is stopped";
            } else if (queue.terminating()) {
                unplaceable = "ClusterQueue " + queue.name() + " is terminating or missing"; // Kueue's Inadmissible message
            } else if (!state.pending.containsKey(queue.name())) {
                unplaceable = "ClusterQueue " + queue.name() + " is inactive";
            }
        }
        if (unplaceable == null) {
            state.pending.get(queue.name()).add(entry);
            return;
        }
        state.unplaced.add(entry);
        Condition current = entry.status.condition(Conditions.QUOTA_RESERVED);
        if (current == null || current.status() || !unplaceable.equals(current.message())) {
            writer.write(entry, WorkloadConditions.pending(entry.status, unplaceable, writer.now()));
        }
    }

    void unqueue(WorkloadEntry entry) {
        backingOff.remove(entry);
        if (state.releaseHold(entry)) state.capacityFreed(entry.clusterQueue);
        if (entry.clusterQueue != null) {
            PendingQueue queue = state.pending.get(entry.clusterQueue);
            if (queue != null) queue.remove(entry);
        }
        state.unplaced.remove(entry);
    }

    /** Queues again the workloads whose status.requeueState.requeueAt has passed (Kueue: Requeued=True, BackoffFinished). */
    void requeueAfterBackoff() {
        if (backingOff.isEmpty()) return;
        Instant now = writer.now();
        for (WorkloadEntry entry : List.copyOf(backingOff)) {
            if (entry.status.requeueAt() != null && entry.status.requeueAt().isAfter(now)) continue;
            backingOff.remove(entry);
            writer.write(entry, WorkloadConditions.backoffFinished(entry.status, now));
            enqueue(entry);
            queueStatus.touched(entry);
        }
    }

    /** Rebuilds quota and the pending queues when queue objects changed since the last pass. */
    void rebuildIfChanged() {
        if (!structureChanged) return;
        structureChanged = false;
        state.rebuildQuota();
        List<WorkloadEntry> waiting = new ArrayList<>();
        for (PendingQueue queue : state.pending.values()) waiting.addAll(queue.inOrder());
        waiting.addAll(state.unplaced);
        state.pending.clear();
        state.unplaced.clear();
        for (ClusterQueueSpec spec : state.clusterQueues.values()) {
            if (state.inactiveReason(spec) == null) state.pending.put(spec.name(), new PendingQueue());
        }
        state.pendingQueuesReplaced();
        for (WorkloadEntry entry : waiting) enqueue(entry);
        queueStatus.touchedAll();
    }

    /** Waiting workloads, placed or not: what a cycle report counts as pending. */
    int waitingCount() {
        int pending = 0;
        for (PendingQueue queue : state.pending.values()) pending += queue.size();
        return pending + state.unplaced.size();
    }
}
