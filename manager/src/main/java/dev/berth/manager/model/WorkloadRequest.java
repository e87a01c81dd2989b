package dev.berth.manager.model;

import java.util.List;

/**
 * What the scheduler needs to know about a workload: where it queues, its priority, when it was
 * created (epoch millis), its pod sets, and spec.maximumExecutionTimeSeconds (null when unlimited).
 */
public record WorkloadRequest(WorkloadKey key,
                              String queueName,
                              int priority,
                              long creationMillis,
                              List<PodSetRequest> podSets,
                              Long maximumExecutionTimeSeconds) {
    public WorkloadRequest {
        podSets = List.copyOf(podSets);
    }

    public WorkloadRequest(WorkloadKey key, String queueName, int priority, long creationMillis, List<PodSetRequest> podSets) {
        this(key, queueName, priority, creationMillis, podSets, null);
    }

    /** The same request with a time limit. */
    public WorkloadRequest withMaximumExecutionTimeSeconds(Long seconds) {
        return new WorkloadRequest(key, queueName, priority, creationMillis, podSets, seconds);
    }
}
