package dev.berth.manager.explain;

import dev.berth.manager.dispatch.RejectionReason;
import dev.berth.protocol.VisibilityApi.Reasons;

/**
 * Maps the per-cluster rejections of {@code dispatch.PlacementPolicy} to explain's CamelCase reasons:
 * from the decision's {@link RejectionReason} code when there is one ({@link #reasonOf(RejectionReason, String)}),
 * by the message's wording only for decisions without codes. DispatchExplanationTest runs the real
 * policy so that a new code or a changed wording fails the build instead of becoming "Other".
 */
public final class ClusterRejection {
    private ClusterRejection() {}

    /** The reason for a rejection with its placement code; without one (older decisions), from the message. */
    public static String reasonOf(RejectionReason code, String message) {
        if (code == null) return reasonOf(message);
        return switch (code) {
            case NOT_CONNECTED -> Reasons.CLUSTER_NOT_CONNECTED;
            case CORDONED -> Reasons.CLUSTER_CORDONED;
            case BREAKER_OPEN -> Reasons.CLUSTER_BREAKER_OPEN;
            case UNHEALTHY -> Reasons.CLUSTER_UNHEALTHY;
            case NO_HEARTBEAT, HEARTBEAT_STALE -> Reasons.CLUSTER_HEARTBEAT_STALE;
            case FLAVOR_MISSING -> Reasons.FLAVOR_MISSING;
            case NO_CAPACITY -> Reasons.NO_CAPACITY;
            case NOT_YET -> Reasons.NOT_YET_INCREMENTAL;
        };
    }

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
