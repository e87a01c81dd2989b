package dev.berth.manager.core;

/**
 * Hears the admission controller's transitions, for metrics. Called on the controller's thread, once
 * per event, with values the controller already has: implementations must be cheap and must not
 * call back into the controller. Waits are in milliseconds of the controller's clock.
 */
public interface AdmissionListener {
    AdmissionListener NONE = new AdmissionListener() {};

    /** A scheduling cycle with at least one head starts; the token comes back in {@link #attempt}. */
    default long attemptStarting() {
        return 0L;
    }

    /** A scheduling cycle ended; success when it reserved quota for at least one workload. */
    default void attempt(boolean success, long startToken) {}

    /** Quota was reserved, {@code waitedMillis} after the workload was created or requeued. */
    default void quotaReserved(String clusterQueue, long waitedMillis) {}

    /**
     * The workload is admitted (quota reserved and every admission check ready), {@code waitedMillis}
     * after it was created or requeued; {@code checksMillis} after quota was reserved, or -1 when it
     * had no admission checks.
     */
    default void admitted(String clusterQueue, long waitedMillis, long checksMillis) {}

    /** The workload lost its quota for a reason of Kueue's (Preempted, Deactivated, AdmissionCheck, ...). */
    default void evicted(String clusterQueue, String reason) {}

    /** {@link #quotaReserved(String, long)} with the workload's LocalQueue and priority class. */
    default void quotaReserved(WorkloadMetricLabels workload, long waitedMillis) {
        quotaReserved(workload.clusterQueue(), waitedMillis);
    }

    /** {@link #admitted(String, long, long)} with the workload's LocalQueue and priority class. */
    default void admitted(WorkloadMetricLabels workload, long waitedMillis, long checksMillis) {
        admitted(workload.clusterQueue(), waitedMillis, checksMillis);
    }

    /**
     * {@link #evicted(String, String)} with the workload's LocalQueue and priority class, and Kueue's
     * underlying cause ("" when the reason is the root cause; MaximumExecutionTimeExceeded,
     * AdmissionCheck or RequeuingLimitExceeded under Deactivated).
     */
    default void evicted(WorkloadMetricLabels workload, String reason, String underlyingCause) {
        evicted(workload.clusterQueue(), reason);
    }

    /** The workload finished; its ClusterQueue is "" when it was never admitted (Kueue's label). */
    default void finished(WorkloadMetricLabels workload) {}

    /** A workload of {@code preemptingClusterQueue} preempted another, for one of Kueue's preemption reasons. */
    default void preempted(String preemptingClusterQueue, String reason) {}
}
