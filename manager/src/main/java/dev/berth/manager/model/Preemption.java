package dev.berth.manager.model;

/**
 * A ClusterQueue's preemption settings. borrowWithinCohortPolicy is NEVER or LOWER_PRIORITY;
 * maxPriorityThreshold (nullable) limits which workloads a borrowing workload may preempt.
 */
public record Preemption(PreemptionPolicy withinClusterQueue,
                         PreemptionPolicy reclaimWithinCohort,
                         PreemptionPolicy borrowWithinCohortPolicy,
                         Integer borrowWithinCohortMaxPriorityThreshold) {
    public static final Preemption NONE =
            new Preemption(PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, null);
}
