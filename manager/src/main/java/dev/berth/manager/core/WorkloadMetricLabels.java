package dev.berth.manager.core;

/**
 * What Kueue labels a workload's counters with: the ClusterQueue that admitted it, its LocalQueue
 * (namespace and name, for the kueue_local_queue_* series) and its priority class name ("" when none).
 */
public record WorkloadMetricLabels(String clusterQueue, String namespace, String localQueue, String priorityClass) {
    public WorkloadMetricLabels {
        if (priorityClass == null) priorityClass = "";
    }

    static WorkloadMetricLabels of(WorkloadEntry entry, String clusterQueue) {
        return new WorkloadMetricLabels(clusterQueue, entry.key().namespace(), entry.request.queueName(), entry.request.priorityClass());
    }
}
