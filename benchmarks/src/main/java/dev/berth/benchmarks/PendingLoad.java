package dev.berth.benchmarks;

import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;

/**
 * The mixed backlog of the microbenchmarks: per ClusterQueue a run of workloads of 1, 2, 5, 10
 * and 40 cpu at priorities 50, 100 and 200. Quota is 20 cpu per queue, so once the first few are
 * admitted most of them do not fit; the 40-cpu ones fit only by borrowing.
 */
public final class PendingLoad {
    private static final long[] CPU_MILLIS = {1_000, 2_000, 5_000, 10_000, 40_000};
    private static final int[] PRIORITIES = {50, 100, 200};

    private PendingLoad() {}

    /** Workload number {@code serial} of ClusterQueue {@code queue}; its shape depends only on serial. */
    public static WorkloadRequest workload(QueueTopology topology, int queue, long serial, long creationMillis) {
        WorkloadKey key = WorkloadKey.of(topology.namespace(queue), "wl-" + serial);
        int shape = (int) (serial % (CPU_MILLIS.length * PRIORITIES.length));
        return CpuWorkload.request(key, PRIORITIES[shape % PRIORITIES.length], creationMillis,
                CPU_MILLIS[shape % CPU_MILLIS.length]);
    }
}
