package dev.berth.manager.core;

import dev.berth.manager.model.WorkloadKey;

/**
 * Where the admission controller writes its results. The implementation makes them durable (the
 * object store) before returning; if it throws, the controller undoes the change it was applying.
 */
public interface StatusSink {
    /** A workload's status (and whether it is active: a Rejected check deactivates it) changed. */
    void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status);

    void clusterQueueChanged(String name, QueueStatus status);

    void localQueueChanged(String namespace, String name, QueueStatus status);

    /** A Cohort's status changed (its fair-sharing weighted share); only Cohorts that exist as objects are written. */
    default void cohortChanged(String name, CohortStatus status) {}

    /** A finished workload outlived objectRetentionPolicies.workloads.afterFinished: delete it. */
    void workloadExpired(WorkloadKey key);

    /**
     * A workload Kueue's rules deactivated outlived objectRetentionPolicies.workloads.afterDeactivatedByKueue:
     * Kueue deletes its job (in the background, which collects the workload); without a job, the workload.
     */
    default void deactivatedWorkloadExpired(WorkloadKey key) {
        workloadExpired(key);
    }
}
