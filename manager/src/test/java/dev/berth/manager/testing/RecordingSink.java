package dev.berth.manager.testing;

import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A StatusSink that keeps the latest status of everything, for assertions. It is a real sink, not a mock: it records. */
public final class RecordingSink implements StatusSink {
    public final Map<WorkloadKey, WorkloadStatus> workloads = new HashMap<>();
    public final Map<WorkloadKey, Boolean> active = new HashMap<>();
    public final Map<String, QueueStatus> clusterQueues = new HashMap<>();
    public final Map<String, QueueStatus> localQueues = new HashMap<>();
    public final Map<String, dev.berth.manager.core.CohortStatus> cohorts = new HashMap<>();
    public final List<WorkloadKey> expired = new ArrayList<>();
    /** The reason of every Preempted=True condition written, per workload: a later admission resets the condition. */
    public final Map<WorkloadKey, List<String>> preemptions = new HashMap<>();
    public int workloadWrites;

    @Override
    public void workloadChanged(WorkloadKey key, boolean isActive, WorkloadStatus status) {
        workloads.put(key, status);
        var preempted = status.condition(dev.berth.protocol.Conditions.PREEMPTED);
        if (preempted != null && preempted.status()) {
            List<String> reasons = preemptions.computeIfAbsent(key, k -> new ArrayList<>());
            if (reasons.isEmpty() || !reasons.get(reasons.size() - 1).equals(preempted.reason())) reasons.add(preempted.reason());
        }
        active.put(key, isActive);
        workloadWrites++;
    }

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        clusterQueues.put(name, status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        localQueues.put(namespace + "/" + name, status);
    }

    @Override
    public void cohortChanged(String name, dev.berth.manager.core.CohortStatus status) {
        cohorts.put(name, status);
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        expired.add(key);
    }
}
