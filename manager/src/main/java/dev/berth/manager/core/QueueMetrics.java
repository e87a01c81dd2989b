package dev.berth.manager.core;

import java.util.List;

/**
 * The gauges of every ClusterQueue at one moment, as Kueue reports them. Amounts are in canonical
 * units (cpu in millicores, others whole units); a null limit is no limit.
 */
public record QueueMetrics(List<ClusterQueue> clusterQueues) {
    public QueueMetrics {
        clusterQueues = List.copyOf(clusterQueues);
    }

    /** Kueue's ClusterQueue status for the metric: pending (cannot admit), active, or terminating. */
    public enum Status { PENDING, ACTIVE, TERMINATING }

    public record ClusterQueue(String name, String cohort, Status status, int pendingActive, int pendingInadmissible,
                               List<Resource> resources) {
        public ClusterQueue {
            resources = List.copyOf(resources);
        }
    }

    /** Usage counts admitted workloads, reservation every workload holding quota (Kueue's split). */
    public record Resource(String flavor, String resource, long nominal, Long borrowingLimit, Long lendingLimit,
                           long usage, long reservation) {}
}
