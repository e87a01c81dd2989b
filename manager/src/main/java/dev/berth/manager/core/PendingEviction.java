package dev.berth.manager.core;

/**
 * An eviction recorded (Evicted=True) but not yet carried out: the workload's copy on a worker
 * cluster is being stopped, and until that is confirmed the workload keeps its quota. What the
 * release does then: the same reason, message, preemption reason, and whether it is requeued.
 */
record PendingEviction(String reason, String message, String preemptionReason, boolean requeue) {

    /** After a restart only the Evicted condition is left: it is requeued unless it was deactivated. */
    static PendingEviction fromCondition(Condition evicted, boolean active) {
        return new PendingEviction(evicted.reason(), evicted.message(), null, active);
    }
}
