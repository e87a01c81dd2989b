package dev.berth.manager.core;

import java.time.Duration;

/**
 * Kueue's objectRetentionPolicies.workloads.afterDeactivatedByKueue: how long a Workload that Kueue's
 * own rules deactivated (Evicted with a DeactivatedDueTo... reason: a Rejected admission check, the
 * maximum execution time, the requeuing limit) is kept before it is deleted; null keeps it forever.
 * A workload a user deactivated is never deleted for this.
 */
public record DeactivatedRetention(Duration afterDeactivatedByKueue) {
    public static final DeactivatedRetention FOREVER = new DeactivatedRetention(null);

    public DeactivatedRetention {
        if (afterDeactivatedByKueue != null && afterDeactivatedByKueue.isNegative()) {
            throw new IllegalArgumentException("afterDeactivatedByKueue must be zero or positive");
        }
    }

    /** Kueue's rule: inactive, Evicted=True with a DeactivatedDueTo... reason, for at least the retention. */
    public boolean expired(boolean active, WorkloadStatus status, long nowMillis) {
        if (afterDeactivatedByKueue == null || active) return false;
        Condition evicted = status.condition(dev.berth.protocol.Conditions.EVICTED);
        if (evicted == null || !evicted.status() || evicted.reason() == null || !evicted.reason().startsWith("DeactivatedDueTo")) return false;
        long since = evicted.lastTransitionTime() == null ? nowMillis : evicted.lastTransitionTime().toEpochMilli();
        return nowMillis - since >= afterDeactivatedByKueue.toMillis();
    }
}
