package dev.berth.manager.core;

import dev.berth.manager.model.Admission;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.util.Comparator;
import java.util.Map;

/** The controller's bookkeeping for one workload. Mutable; confined to the controller's thread. */
final class WorkloadEntry {
    /** Kueue's queue order: higher priority first, then earlier queue time, then name. */
    static final Comparator<WorkloadEntry> QUEUE_ORDER = WorkloadEntry::compareInQueueOrder;

    /** {@link #QUEUE_ORDER} written out: the pending queues' tree sets call it on every move. */
    static int compareInQueueOrder(WorkloadEntry a, WorkloadEntry b) {
        if (a == b) return 0;
        int byPriority = Integer.compare(-a.request.priority(), -b.request.priority());
        if (byPriority != 0) return byPriority;
        int byTime = Long.compare(a.queueOrderMillis, b.queueOrderMillis);
        if (byTime != 0) return byTime;
        int bySequence = Long.compare(a.requeueSequence, b.requeueSequence);
        if (bySequence != 0) return bySequence;
        return a.request.key().compareTo(b.request.key());
    }

    WorkloadRequest request;
    boolean active;
    WorkloadStatus status;
    /** Non-null while the workload holds quota. */
    Admission admission;
    Map<FlavorResource, Long> usage;
    String clusterQueue;
    long reservedAtMillis;
    /** What a preemption plan sees of this workload while it holds quota (see {@link HolderIndex}); null otherwise. */
    dev.berth.manager.scheduling.AdmittedWorkload holderView;
    /** The scheduling pass ({@link SchedulerState#pass}) in which it last reserved quota. */
    long reservedInPass = -1;
    long queueOrderMillis;
    /** Orders workloads requeued in the same millisecond by when they were requeued (0 until the first eviction). */
    long requeueSequence;
    /**
     * Quota held for this workload after it preempted, until it is nominated again: the quota its
     * victims freed is not taken by a workload of another queue in between (Kueue #6947).
     */
    Map<FlavorResource, Long> preemptionHold;
    String preemptionHoldQueue;
    /** Non-null while evicted but still holding quota: its copy on a worker cluster is being stopped. */
    PendingEviction pendingEviction;
    long finishedAtMillis;
    boolean finished;
    /** The LocalQueue key (namespace/name) the workload is accounted to. */
    String localQueueKey;
    /** Flavors the flavor assigner skips for it: no connected worker cluster offered them (set by dispatch). */
    java.util.Set<String> avoidedFlavors = java.util.Set.of();
    /** The entry's {@link PendingShape} while pending, and the request it was computed for. */
    PendingShape pendingShape;
    WorkloadRequest pendingShapeOf;

    WorkloadEntry(WorkloadRequest request, boolean active, WorkloadStatus status) {
        this.request = request;
        this.active = active;
        this.status = status;
        this.queueOrderMillis = request.creationMillis();
        this.localQueueKey = request.key().namespace() + "/" + request.queueName();
    }

    WorkloadKey key() {
        return request.key();
    }

    boolean holdsQuota() {
        return admission != null;
    }

    /** Evicted, its quota kept until its remote copy is confirmed stopped. */
    boolean awaitingStop() {
        return pendingEviction != null && admission != null;
    }

    boolean isAdmitted() {
        return admission != null && status.isTrue(dev.berth.protocol.Conditions.ADMITTED);
    }
}
