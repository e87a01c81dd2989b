package dev.berth.benchmarks;

import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.model.WorkloadKey;

/** A StatusSink for benchmarks that follow workloads only: queue statuses and expiries are dropped. */
interface WorkloadStatusSink extends StatusSink {
    @Override
    default void clusterQueueChanged(String name, QueueStatus status) {
    }

    @Override
    default void localQueueChanged(String namespace, String name, QueueStatus status) {
    }

    @Override
    default void workloadExpired(WorkloadKey key) {
    }
}
