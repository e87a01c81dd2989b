package dev.berth.manager.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether a cluster's event is worth placing every waiting workload again. An agent renews its heartbeat
 * every second; before, each renewal re-placed every waiting workload, although an unchanged report cannot
 * change where they go (in the API benchmark that was 70 % of the state thread's CPU). Now a cluster's event
 * re-places them when what placement sees of that cluster changed: connected, cordoned, health, breaker,
 * heartbeat fresh or stale, and free capacity net of the dispatches still in flight. Anything else that
 * may change a placement without changing the cluster (an avoided cluster's time running out, a copy
 * stopped elsewhere) is caught by a full re-placement at least every {@code unchangedInterval}, and by the
 * work queue's periodic resync. Pure: the caller passes the time; one instance per dispatcher, state thread.
 */
public final class WaitingReplacement {
    /** How often an unchanged cluster's events still place the waiting workloads again. */
    public static final Duration UNCHANGED_INTERVAL = Duration.ofSeconds(10);

    /** What placement sees of a cluster, without the heartbeat's time (only whether it is fresh). */
    private record Seen(boolean connected, boolean cordoned, boolean fresh, Map<String, FlavorCapacity> flavors,
                        ClusterHealth health, BreakerState breaker) {}

    private final Duration heartbeatStaleAfter;
    private final Duration unchangedInterval;
    private final Map<String, Seen> seen = new HashMap<>();
    private final Map<String, Instant> lastReplaced = new HashMap<>();

    /**
     * @param heartbeatStaleAfter placement's own bound ({@link PlacementOptions#heartbeatStaleAfter()})
     * @param unchangedInterval how often the waiting workloads are placed again on a cluster's events even
     *     when nothing placement sees of it changed
     */
    public WaitingReplacement(Duration heartbeatStaleAfter, Duration unchangedInterval) {
        this.heartbeatStaleAfter = heartbeatStaleAfter;
        this.unchangedInterval = unchangedInterval;
    }

    /**
     * True when the waiting workloads should be placed again after an event of the cluster whose view (free
     * capacity already net of in-flight dispatches) is {@code view}; remembers the view when it says so.
     */
    public boolean due(ClusterView view, Instant now) {
        boolean fresh = view.lastHeartbeat() != null && !now.isAfter(view.lastHeartbeat().plus(heartbeatStaleAfter));
        Seen current = new Seen(view.connected(), view.cordoned(), fresh, view.flavors(), view.health(), view.breaker());
        Instant last = lastReplaced.get(view.name());
        boolean due = !current.equals(seen.get(view.name())) || last == null || !now.isBefore(last.plus(unchangedInterval));
        if (due) {
            seen.put(view.name(), current);
            lastReplaced.put(view.name(), now);
        }
        return due;
    }
}
