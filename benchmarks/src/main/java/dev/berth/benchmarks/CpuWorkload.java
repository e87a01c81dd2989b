package dev.berth.benchmarks;

import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.ResourceNames;
import java.util.List;
import java.util.Map;

/** The workloads of the performance scenarios: one pod asking only for cpu, in a LocalQueue. */
public final class CpuWorkload {
    private CpuWorkload() {}

    public static WorkloadRequest request(WorkloadKey key, int priority, long creationMillis, long cpuMillis) {
        PodSetRequest podSet = new PodSetRequest("main", 1, null, Map.of(ResourceNames.CPU, cpuMillis),
                Map.of(), List.of(), List.of());
        return new WorkloadRequest(key, QueueTopology.LOCAL_QUEUE, priority, creationMillis, List.of(podSet));
    }
}
