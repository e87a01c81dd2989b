package dev.berth.manager.scheduling;

import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadKey;
import java.util.Map;

/** A workload holding quota, as the preemption planner sees it. reservedAtMillis orders victims: newest first. */
public record AdmittedWorkload(WorkloadKey key,
                               String clusterQueue,
                               int priority,
                               long creationMillis,
                               long reservedAtMillis,
                               Map<FlavorResource, Long> usage) {
}
