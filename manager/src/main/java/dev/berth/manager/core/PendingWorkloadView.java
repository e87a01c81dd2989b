package dev.berth.manager.core;

import dev.berth.manager.model.WorkloadKey;

/**
 * A pending workload as the visibility API lists it, in the scheduler's order: its LocalQueue,
 * priority, creation time (epoch millis) and why it waits (the QuotaReserved=False message; null
 * before the scheduler looked at it).
 */
public record PendingWorkloadView(WorkloadKey key, String localQueue, int priority, long creationMillis,
                                  String pendingReason) {
}
