package dev.berth.manager.core;

import java.util.List;

/**
 * The status of a ClusterQueue or LocalQueue, in Kueue's schema. admissionFairSharing is a LocalQueue's
 * fairSharing.admissionFairSharingStatus, null when its ClusterQueue is not in admission fair sharing.
 * {@code weightedShare} is a ClusterQueue's {@code fairSharing.weightedShare}, null when fair sharing
 * is off (no fairSharing block, as in Kueue) and always null for a LocalQueue.
 */
public record QueueStatus(int pendingWorkloads,
                          int reservingWorkloads,
                          int admittedWorkloads,
                          List<FlavorUsage> flavorsReservation,
                          List<FlavorUsage> flavorsUsage,
                          List<Condition> conditions,
                          LocalQueueFairSharingStatus admissionFairSharing,
                          Long weightedShare) {
    public QueueStatus {
        flavorsReservation = List.copyOf(flavorsReservation);
        flavorsUsage = List.copyOf(flavorsUsage);
        conditions = List.copyOf(conditions);
    }

    public QueueStatus(int pendingWorkloads, int reservingWorkloads, int admittedWorkloads, List<FlavorUsage> flavorsReservation,
                       List<FlavorUsage> flavorsUsage, List<Condition> conditions) {
        this(pendingWorkloads, reservingWorkloads, admittedWorkloads, flavorsReservation, flavorsUsage, conditions, null, null);
    }

    /**
     * Kueue's WeightedShare (pkg/controller/core/helpers.go): the precise share rounded up, the
     * largest long for +Infinity (a zero weight that borrows).
     */
    public static long roundedWeightedShare(double precise) {
        if (precise == Double.POSITIVE_INFINITY) return Long.MAX_VALUE;
        return (long) Math.ceil(precise);
    }
}
