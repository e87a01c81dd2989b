package dev.berth.manager.dispatch;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which reports of a cluster's listing must be mirrored onto their workloads again. Every poll lists every attempt
 * a cluster holds; before, each was mirrored every time (reading the Workload, its admission checks and the owner's
 * status from the store and comparing), although an agent writes a report's status only when it changed: in the API
 * benchmark that was the state thread's largest cost. Now a report is mirrored again only when something the mirror
 * reads may have changed since it was last mirrored:
 * <ul>
 *   <li>the report itself: the RemoteWorkload's resourceVersion (the API server changes it with every write of the
 *       object, status or spec) or its attempt id; no resourceVersion is always a change;</li>
 *   <li>the attempt's own state the mirror consults: its winner, the copy chosen for commit, draining;</li>
 *   <li>the workload's status, written by the admission controller (check states, eviction, PodsReady):
 *       {@link #workloadChanged} forgets the workload on every cluster;</li>
 *   <li>the cluster's connection ({@link #forgetCluster}), and, as a resync, every {@code fullMirrorInterval} per
 *       cluster, when its listing mirrors every report (a repair for what an event missed, as controller-runtime's
 *       resync is). A leader's first listing of a cluster mirrors every report: a new leader has nothing remembered.</li>
 * </ul>
 * Only reports whose mirror, once done, changes nothing while they are unchanged are ever skipped: Pending, Admitted
 * and Running without provisioning progress. Reserved is mirrored every listing (two-phase dispatch commits and
 * retries commits on it, by time), a final phase (Succeeded, Failed, Stopped, Rejected) retires its attempt the
 * first time, and provisioning progress is decided against the check's retry count. Which attempts a listing
 * misses is not decided here: every listing is still read whole for that. Pure: the caller passes the time; one
 * instance per dispatcher, state thread only.
 *
 * @param <K> the workload key
 */
public final class MirroredReports<K> {
    /** How often a cluster's listing mirrors every report, changed or not. */
    public static final Duration FULL_MIRROR_INTERVAL = Duration.ofSeconds(30);

    /**
     * What a mirror of one listed report reads besides the workload's status.
     *
     * @param attemptId       the attempt the RemoteWorkload belongs to
     * @param resourceVersion the RemoteWorkload's metadata.resourceVersion; null when the server gave none
     * @param phase           the reported phase
     * @param provisioning    whether the report carries provisioning progress
     * @param winner          the cluster whose copy won the attempt, if any
     * @param committedTo     the cluster whose reserved copy is being committed, if any
     * @param draining        whether the attempt is being drained off its cluster
     */
    public record Seen(String attemptId, String resourceVersion, String phase, boolean provisioning, String winner,
                       String committedTo, boolean draining) {}

    private final Duration fullMirrorInterval;
    /** Per cluster, per workload: what the last mirror of its report there saw. */
    private final Map<String, Map<K, Seen>> mirrored = new HashMap<>();
    private final Map<String, Instant> lastFullMirror = new HashMap<>();

    public MirroredReports(Duration fullMirrorInterval) {
        this.fullMirrorInterval = fullMirrorInterval;
    }

    /** A listing of the cluster begins: when its last full mirror is older than the interval (or never was), this one mirrors all. */
    public void listingBegins(String cluster, Instant now) {
        Instant last = lastFullMirror.get(cluster);
        if (last != null && now.isBefore(last.plus(fullMirrorInterval))) return;
        lastFullMirror.put(cluster, now);
        mirrored.remove(cluster);
    }

    /** True unless the same report was mirrored before with the same attempt state and nothing forgot it since. */
    public boolean mustMirror(String cluster, K workload, Seen seen) {
        if (seen.resourceVersion() == null || !settles(seen.phase(), seen.provisioning())) return true;
        Map<K, Seen> ofCluster = mirrored.get(cluster);
        return ofCluster == null || !seen.equals(ofCluster.get(workload));
    }

    /** The report was mirrored (completely: a mirror that failed half-way is not recorded). */
    public void mirrored(String cluster, K workload, Seen seen) {
        if (seen.resourceVersion() == null || !settles(seen.phase(), seen.provisioning())) {
            forget(cluster, workload);
            return;
        }
        mirrored.computeIfAbsent(cluster, c -> new HashMap<>()).put(workload, seen);
    }

    /** A listing of the cluster ended: the workloads it did not show are forgotten, so a report that comes back is mirrored. */
    public void listingEnds(String cluster, Collection<K> listed) {
        Map<K, Seen> ofCluster = mirrored.get(cluster);
        if (ofCluster == null) return;
        ofCluster.keySet().retainAll(listed instanceof Set<K> set ? set : new HashSet<>(listed));
        if (ofCluster.isEmpty()) mirrored.remove(cluster);
    }

    /** The workload's status changed: its reports are mirrored again on every cluster. */
    public void workloadChanged(K workload) {
        for (Map<K, Seen> ofCluster : mirrored.values()) ofCluster.remove(workload);
    }

    /** The cluster connected or disconnected: its next listing mirrors every report. */
    public void forgetCluster(String cluster) {
        mirrored.remove(cluster);
        lastFullMirror.remove(cluster);
    }

    /** How many reports are remembered, over all clusters (for tests). */
    public int remembered() {
        return mirrored.values().stream().mapToInt(Map::size).sum();
    }

    private void forget(String cluster, K workload) {
        Map<K, Seen> ofCluster = mirrored.get(cluster);
        if (ofCluster != null) ofCluster.remove(workload);
    }

    /** Whether a report in this phase, mirrored once, asks for nothing more while it stays the same. */
    static boolean settles(String phase, boolean provisioning) {
        if (provisioning || phase == null) return false;
        return switch (phase) {
            case RemoteWorkloadPhase.PENDING, RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.RUNNING -> true;
            default -> false;
        };
    }
}
