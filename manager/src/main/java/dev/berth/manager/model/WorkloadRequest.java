package dev.berth.manager.model;

import java.util.List;

/**
 * What the scheduler needs to know about a workload: where it queues, its priority, when it was
 * created (epoch millis), its pod sets, spec.maximumExecutionTimeSeconds (null when unlimited), and
 * the name of its spec.priorityClassRef ("" when none: Kueue's priority_class metric label).
 */
public record WorkloadRequest(WorkloadKey key,
                              String queueName,
                              int priority,
                              long creationMillis,
                              List<PodSetRequest> podSets,
                              Long maximumExecutionTimeSeconds,
                              String priorityClass) {
    public WorkloadRequest {
        podSets = List.copyOf(podSets);
        if (priorityClass == null) priorityClass = "";
    }

    public WorkloadRequest(WorkloadKey key, String queueName, int priority, long creationMillis, List<PodSetRequest> podSets,
                           Long maximumExecutionTimeSeconds) {
        this(key, queueName, priority, creationMillis, podSets, maximumExecutionTimeSeconds, "");
    }

    public WorkloadRequest(WorkloadKey key, String queueName, int priority, long creationMillis, List<PodSetRequest> podSets) {
        this(key, queueName, priority, creationMillis, podSets, null);
    }

    /** The same request with a time limit. */
    public WorkloadRequest withMaximumExecutionTimeSeconds(Long seconds) {
        return new WorkloadRequest(key, queueName, priority, creationMillis, podSets, seconds, priorityClass);
    }

    /** The same request naming its priority class. */
    public WorkloadRequest withPriorityClass(String name) {
        return new WorkloadRequest(key, queueName, priority, creationMillis, podSets, maximumExecutionTimeSeconds, name);
    }
}
