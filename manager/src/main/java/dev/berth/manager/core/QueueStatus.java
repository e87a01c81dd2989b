package dev.berth.manager.core;

import java.util.List;

/** The status of a ClusterQueue or LocalQueue, in Kueue's schema. */
public record QueueStatus(int pendingWorkloads,
                          int reservingWorkloads,
                          int admittedWorkloads,
                          List<FlavorUsage> flavorsReservation,
                          List<FlavorUsage> flavorsUsage,
                          List<Condition> conditions) {
    public QueueStatus {
        flavorsReservation = List.copyOf(flavorsReservation);
        flavorsUsage = List.copyOf(flavorsUsage);
        conditions = List.copyOf(conditions);
    }
}
