package dev.berth.manager.explain;

import dev.berth.protocol.VisibilityApi.Reasons;

/**
 * Classifies the per-cluster reasons {@code dispatch.PlacementPolicy} gives into CamelCase reasons.
 * Breaker open and lease lost are named hooks: the failover work makes placement reject clusters
 * with messages starting "breaker open" and "lease lost". ClusterRejectionTest runs the real
 * policy so that a changed wording fails the build instead of becoming "Other".
 */
public final class ClusterRejection {
    private ClusterRejection() {}

    public static String reasonOf(String message) {
        if (message == null) return Reasons.OTHER;
        if (message.equals("not connected")) return Reasons.CLUSTER_NOT_CONNECTED;
        if (message.startsWith("cordoned")) return Reasons.CLUSTER_CORDONED;
        if (message.startsWith("breaker open")) return Reasons.CLUSTER_BREAKER_OPEN;
        if (message.startsWith("lease lost")) return Reasons.CLUSTER_LEASE_LOST;
        if (message.startsWith("no agent heartbeat") || message.startsWith("heartbeat stale")) return Reasons.CLUSTER_HEARTBEAT_STALE;
        if (message.startsWith("flavor ") && message.endsWith(" missing")) return Reasons.FLAVOR_MISSING;
        if (message.startsWith("no capacity")) return Reasons.NO_CAPACITY;
        if (message.startsWith("not yet")) return Reasons.NOT_YET_INCREMENTAL;
        return Reasons.OTHER;
    }
}
