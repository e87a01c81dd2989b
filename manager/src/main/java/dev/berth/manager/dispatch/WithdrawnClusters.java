package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Per workload, the clusters it was withdrawn from and until when it keeps away from them, so that a
 * re-placement does not bounce straight back to the cluster that could not start it. Pure: the caller
 * passes the time. State thread only.
 *
 * @param <K> the workload key
 */
public final class WithdrawnClusters<K> {
    private final Map<K, Map<String, Instant>> avoidUntil = new HashMap<>();
    /** The latest withdrawal's message per workload, told again with the next placement. */
    private final Map<K, String> notes = new HashMap<>();

    public void withdrawn(K workload, String cluster, Instant until, String message) {
        avoidUntil.computeIfAbsent(workload, k -> new HashMap<>()).put(cluster, until);
        notes.put(workload, message);
    }

    /** The clusters the workload keeps away from at {@code now}; expired entries are dropped. */
    public Set<String> avoided(K workload, Instant now) {
        Map<String, Instant> byCluster = avoidUntil.get(workload);
        if (byCluster == null) return Set.of();
        byCluster.values().removeIf(until -> !now.isBefore(until));
        if (byCluster.isEmpty()) avoidUntil.remove(workload);
        return new TreeSet<>(byCluster.keySet());
    }

    /** The latest withdrawal's message, or null. */
    public String note(K workload) {
        return notes.get(workload);
    }

    /** The latest withdrawal's message, handed out once (with the placement that follows it), or null. */
    public String told(K workload) {
        return notes.remove(workload);
    }

    /** The workload is gone or finished: nothing to remember. */
    public void forget(K workload) {
        avoidUntil.remove(workload);
        notes.remove(workload);
    }
}
