package dev.berth.manager.model;

import java.util.List;

/**
 * What the scheduler needs to know about a workload: where it queues, its priority, when it was
 * created (epoch millis), and its pod sets.
 */
public record WorkloadRequest(WorkloadKey key,
                              String queueName,
                              int priority,
                              long creationMillis,
                              List<PodSetRequest> podSets) {
    public WorkloadRequest {
        podSets = List.copyOf(podSets);
    }
}
