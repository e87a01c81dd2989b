package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The remote copies of evicted workloads (preempted, deactivated, stopped by a queue's HoldAndDrain,
 * timed out waiting for PodsReady) that the manager has asked to stop and whose stop is not confirmed
 * yet. Until it is, the workload keeps its quota, and placement counts the copy's demand as still in
 * use on each cluster it was sent to: its pods may still hold those GPUs. Whether a copy is stopped
 * is the {@link RedispatchGate}'s verdict on the fence raised for it (pods confirmed gone after the
 * attempt's objects were deleted, or the cluster unreachable past the lease plus margin, or, for a
 * create never confirmed, the lease run out). Pure; mutable; one owner (the dispatcher's thread).
 */
public final class StoppingCopies {

    /** One evicted workload's copy being stopped: its attempt, the clusters it was sent to, and what it asked for. */
    public record Copy(String attemptId, Set<String> clusters, PlacementRequest demand) {}

    private final Map<WorkloadKey, Copy> stopping = new LinkedHashMap<>();

    /** The copy was asked to stop; a null demand (an attempt recovered without one) counts nothing against capacity. */
    public void stopRequested(WorkloadKey key, String attemptId, Collection<String> clusters, PlacementRequest demand) {
        stopping.put(key, new Copy(attemptId, Set.copyOf(new LinkedHashSet<>(clusters)), demand));
    }

    public boolean isStopping(WorkloadKey key) {
        return stopping.containsKey(key);
    }

    /**
     * The decision: may the evicted workload's quota be released now? Only once nothing holds it back:
     * {@code holdMessage} is the fence's reason to wait (null when every copy of its attempt is confirmed
     * stopped, or there was none). Forgets the copy when the answer is yes.
     */
    public boolean mayReleaseQuota(WorkloadKey key, String holdMessage) {
        if (holdMessage != null) return false;
        stopping.remove(key);
        return true;
    }

    /** The workload went away (deleted, finished): nothing of it is waited for any more. */
    public void forget(WorkloadKey key) {
        stopping.remove(key);
    }

    /** The demands still counted as in use on the cluster: copies sent there whose stop is not confirmed. */
    public List<PlacementRequest> demandOn(String cluster) {
        List<PlacementRequest> demands = new ArrayList<>();
        for (Copy copy : stopping.values()) {
            if (copy.demand() != null && copy.clusters().contains(cluster)) demands.add(copy.demand());
        }
        return demands;
    }
}
