package dev.berth.manager.core;

import java.util.List;

/**
 * The status of a ClusterQueue or LocalQueue, in Kueue's schema. admissionFairSharing is a LocalQueue's
 * fairSharing.admissionFairSharingStatus, null when its ClusterQueue is not in admission fair sharing.
 */
public record QueueStatus(int pendingWorkloads,
                          int reservingWorkloads,
                          int admittedWorkloads,
                          List<FlavorUsage> flavorsReservation,
                          List<FlavorUsage> flavorsUsage,
                          List<Condition> conditions,
                          LocalQueueFairSharingStatus admissionFairSharing) {
    public QueueStatus {
        flavorsReservation = List.copyOf(flavorsReservation);
        flavorsUsage = List.copyOf(flavorsUsage);
        conditions = List.copyOf(conditions);
    }

    public QueueStatus(int pendingWorkloads, int reservingWorkloads, int admittedWorkloads, List<FlavorUsage> flavorsReservation,
                       List<FlavorUsage> flavorsUsage, List<Condition> conditions) {
        this(pendingWorkloads, reservingWorkloads, admittedWorkloads, flavorsReservation, flavorsUsage, conditions, null);
    }
}
