package dev.berth.manager.scheduling;

import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadKey;
import java.util.Map;

/**
 * A workload holding quota, as the preemption planner sees it. reservedAtMillis orders victims: newest
 * first. evicted: already evicted and still holding its quota while its remote copy stops; Kueue's
 * candidate ordering takes such workloads first.
 */
public record AdmittedWorkload(WorkloadKey key,
                               String clusterQueue,
                               int priority,
                               long creationMillis,
                               long reservedAtMillis,
                               Map<FlavorResource, Long> usage,
                               boolean evicted) {

    public AdmittedWorkload(WorkloadKey key, String clusterQueue, int priority, long creationMillis, long reservedAtMillis,
                            Map<FlavorResource, Long> usage) {
        this(key, clusterQueue, priority, creationMillis, reservedAtMillis, usage, false);
    }
}
