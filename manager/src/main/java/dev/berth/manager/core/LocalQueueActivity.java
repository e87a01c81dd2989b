package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;

/**
 * A LocalQueue's Active condition, in the order Kueue's LocalQueue reconciler decides it: a stopped
 * LocalQueue, then a missing ClusterQueue, then an inactive one; otherwise Ready.
 */
final class LocalQueueActivity {
    private LocalQueueActivity() {}

    static Condition of(SchedulerState state, LocalQueueSpec spec, Instant now) {
        if (spec.stopPolicy().stopsAdmission()) {
            return new Condition(Conditions.ACTIVE, false, Reasons.STOPPED, "LocalQueue is stopped", now);
        }
        ClusterQueueSpec queue = state.clusterQueues.get(spec.clusterQueue());
        if (queue == null) {
            return new Condition(Conditions.ACTIVE, false, Reasons.CLUSTER_QUEUE_DOES_NOT_EXIST, "Can't submit new workloads to clusterQueue", now);
        }
        if (state.inactiveReason(queue) != null) {
            return new Condition(Conditions.ACTIVE, false, Reasons.CLUSTER_QUEUE_IS_INACTIVE, "Can't submit new workloads to clusterQueue", now);
        }
        return new Condition(Conditions.ACTIVE, true, Reasons.READY, "Can submit new workloads to localQueue", now);
    }
}
