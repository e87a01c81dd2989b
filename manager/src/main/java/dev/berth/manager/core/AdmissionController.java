package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.time.Clock;
import java.util.Map;

/**
 * The manager's global queues. It owns the quota cache and the pending queues, runs scheduling
 * cycles (snapshot, decide, apply) and reports every status change to a {@link StatusSink}.
 * Not thread-safe: the caller confines it to one thread.
 */
public final class AdmissionController {
    public AdmissionController(Clock clock, SchedulerOptions options, StatusSink sink) {
        throw new UnsupportedOperationException("being written");
    }

    public void applyResourceFlavor(ResourceFlavor flavor) { throw new UnsupportedOperationException(); }
    public void deleteResourceFlavor(String name) { throw new UnsupportedOperationException(); }
    public void applyClusterQueue(ClusterQueueSpec spec) { throw new UnsupportedOperationException(); }
    public void deleteClusterQueue(String name) { throw new UnsupportedOperationException(); }
    public void applyCohort(CohortSpec spec) { throw new UnsupportedOperationException(); }
    public void deleteCohort(String name) { throw new UnsupportedOperationException(); }
    public void applyLocalQueue(LocalQueueSpec spec) { throw new UnsupportedOperationException(); }
    public void deleteLocalQueue(String namespace, String name) { throw new UnsupportedOperationException(); }
    public void applyNamespace(String name, Map<String, String> labels) { throw new UnsupportedOperationException(); }
    public void deleteNamespace(String name) { throw new UnsupportedOperationException(); }
    public void applyAdmissionCheck(String name, boolean active) { throw new UnsupportedOperationException(); }
    public void deleteAdmissionCheck(String name) { throw new UnsupportedOperationException(); }

    /** A new workload, or a restored one with the status it had (re-adopts its admission). */
    public void submit(WorkloadRequest request, boolean active, WorkloadStatus status) { throw new UnsupportedOperationException(); }
    public void delete(WorkloadKey key) { throw new UnsupportedOperationException(); }
    public void finish(WorkloadKey key, boolean succeeded, String reason, String message) { throw new UnsupportedOperationException(); }
    public void setAdmissionCheckState(WorkloadKey key, String check, String state, String message) { throw new UnsupportedOperationException(); }
    public void setActive(WorkloadKey key, boolean active) { throw new UnsupportedOperationException(); }

    /** Runs scheduling cycles until one admits and preempts nothing; then handles retention. */
    public CycleReport schedule() { throw new UnsupportedOperationException(); }
}
