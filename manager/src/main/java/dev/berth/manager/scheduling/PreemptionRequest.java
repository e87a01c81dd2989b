package dev.berth.manager.scheduling;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import java.util.Map;
import java.util.Set;

/**
 * A pending workload that needs preemption: its queue, priority, creation time, the quota its
 * assignment would use, and the flavor-resources where that quota is short.
 */
public record PreemptionRequest(ClusterQueueSpec queue,
                                int priority,
                                long creationMillis,
                                Map<FlavorResource, Long> usage,
                                Set<FlavorResource> needingPreemption) {
}
