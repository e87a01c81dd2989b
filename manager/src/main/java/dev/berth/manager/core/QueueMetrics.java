package dev.berth.manager.core;

import java.util.List;

/**
 * The gauges of every ClusterQueue, Cohort and LocalQueue at one moment, as Kueue reports them.
 * Amounts are in canonical units (cpu in millicores, others whole units); a null limit is no limit.
 * Weighted shares are Kueue's precise values (0 when nothing is borrowed, +Infinity for a zero weight
 * that borrows); they are served only when fair sharing is on.
 */
public record QueueMetrics(List<ClusterQueue> clusterQueues, List<Cohort> cohorts, List<LocalQueue> localQueues) {
    public QueueMetrics {
        clusterQueues = List.copyOf(clusterQueues);
        cohorts = List.copyOf(cohorts);
        localQueues = List.copyOf(localQueues);
    }

    public QueueMetrics(List<ClusterQueue> clusterQueues) {
        this(clusterQueues, List.of(), List.of());
    }

    /** Kueue's ClusterQueue status for the metric: pending (cannot admit), active, or terminating. */
    public enum Status { PENDING, ACTIVE, TERMINATING }

    public record ClusterQueue(String name, String cohort, Status status, int pendingActive, int pendingInadmissible,
                               List<Resource> resources, int reservingWorkloads, int admittedWorkloads,
                               double weightedShare) {
        public ClusterQueue {
            resources = List.copyOf(resources);
        }

        public ClusterQueue(String name, String cohort, Status status, int pendingActive, int pendingInadmissible,
                            List<Resource> resources) {
            this(name, cohort, status, pendingActive, pendingInadmissible, resources, 0, 0, 0);
        }
    }

    /** Usage counts admitted workloads, reservation every workload holding quota (Kueue's split). */
    public record Resource(String flavor, String resource, long nominal, Long borrowingLimit, Long lendingLimit,
                           long usage, long reservation) {}

    /** A cohort, declared or only named by a ClusterQueue or a parentName. */
    public record Cohort(String name, double weightedShare) {}

    /**
     * A LocalQueue: its pending workloads split as Kueue splits them (all inadmissible while its
     * ClusterQueue is inactive), the workloads holding quota, its Active condition ("True" or
     * "False") and, per flavor and resource of its ClusterQueue, reservation and usage.
     */
    public record LocalQueue(String namespace, String name, int pendingActive, int pendingInadmissible,
                             int reservingWorkloads, int admittedWorkloads, String active,
                             List<LocalResource> resources) {
        public LocalQueue {
            resources = List.copyOf(resources);
        }
    }

    public record LocalResource(String flavor, String resource, long reservation, long usage) {}
}
