package dev.berth.manager.server;

import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The current dispatch attempt of a workload: its id, the clusters holding a copy, and what the
 * dispatcher tracks per cluster (lease renewals, listings that missed it, acknowledged creates).
 * Mutable; state thread only.
 */
final class DispatchAttempt {
    final String id;
    final Set<String> clusters = new LinkedHashSet<>();
    String winner;
    /**
     * Two-phase dispatch (AllAtOnce, Incremental, External): the copies are reservations. Per cluster, when its
     * copy was first seen Reserved; the cluster committed to (the winner-to-be), when its commit was last
     * sent, and whether it confirmed it. {@code winner} is set only once the commit is confirmed.
     */
    final Map<String, Instant> reservedSince = new HashMap<>();
    String committedTo;
    Instant commitSentAt;
    boolean commitConfirmed;
    /** Set for Incremental and External dispatch, which add clusters while no copy is committed. */
    Instant firstDispatch;
    DispatchStrategy strategy = DispatchStrategy.DEFAULT;
    List<String> configClusters = List.of();
    PlacementRequest request;
    RemoteWorkload remote;
    /** When it was dispatched: until the clusters' capacity reports include it, it is counted as in flight. */
    Instant dispatchedAt;
    /** The dispatch lease of this attempt (the manager's default, or longer by annotation). */
    Duration lease = Duration.ZERO;
    /** Per cluster, the latest lease renew time sent there (or the dispatch time). */
    final Map<String, Instant> lastRenewal = new HashMap<>();
    /** Clusters whose latest renewal failed (retried at the next poll) or is still in flight. */
    final Set<String> renewalFailed = new HashSet<>();
    final Set<String> renewing = new HashSet<>();
    /** An operator drains the cluster: the lease was expired on purpose, so the agent stops the attempt. */
    boolean draining;
    /** Withdrawn for not starting in time (issue 20 rule 1): its lease was expired on purpose; not renewed, not mirrored. */
    boolean withdrawing;
    /** Per cluster, what its latest listing reported of this attempt (phase and reason), for the start timeout. */
    final Map<String, dev.berth.protocol.crd.RemoteWorkloadStatus> lastReport = new HashMap<>();
    /** 1 for the workload's first attempt, then one more per redispatch. */
    int number = 1;
    /** When this manager first knew the attempt (dispatched or recovered): listings before then may not show it. */
    Instant knownSince;
    /** Per cluster, how many listings in a row, each well after {@link #knownSince}, did not show the attempt. */
    final Map<String, Integer> missedListings = new HashMap<>();
    /**
     * Clusters that acknowledged the create or listed the attempt. Anywhere else the create may still be
     * on its way, so dropping that cluster holds the workload until the copy's lease has run out.
     */
    final Set<String> confirmed = new HashSet<>();
    /**
     * Clusters this manager sent a create of the attempt to (stamped with its own epoch). A copy recorded by
     * an earlier manager and never sent by this one carries an older epoch, which an agent that accepted
     * this manager's epoch refuses.
     */
    final Set<String> createsSent = new HashSet<>();
    /** Per cluster, when this manager learned that the cluster answered its create (only listings started later must show it). */
    final Map<String, Instant> createAnsweredAt = new HashMap<>();

    /**
     * Whether a listing of the cluster that started at {@code listingStartedAt} must show the attempt: yes unless this
     * manager's create there is still in flight or was answered only after the listing started (a create queued behind a
     * busy cluster's other calls can take longer than {@link Dispatcher#REPORT_LAG}). A copy this manager never sent (a
     * recovered or adopted attempt) is held to every listing.
     */
    boolean listingMustShow(String cluster, Instant listingStartedAt) {
        if (!createsSent.contains(cluster)) return true;
        Instant answered = createAnsweredAt.get(cluster);
        return answered != null && answered.isBefore(listingStartedAt);
    }

    /** The latest lease stamp sent to the cluster: its last renewal, else the dispatch time, else now. */
    Instant lastStamp(String cluster, Instant now) {
        return lastRenewal.getOrDefault(cluster, dispatchedAt == null ? now : dispatchedAt);
    }

    /** When the copy on the cluster has surely stopped, or can no longer start: its last stamp + lease + margin. */
    Instant leaseGoneAt(String cluster, Duration margin, Instant now) {
        return lastStamp(cluster, now).plus(lease).plus(margin);
    }

    DispatchAttempt(String id) {
        this.id = id;
    }

    /**
     * Sets the attempt up for its MultiKueue strategy. Two-phase: every copy of a multi-cluster strategy is a
     * reservation and only the one committed ever starts; Incremental and External keep what they need to widen.
     */
    void follow(DispatchStrategy chosen, RemoteWorkload copy, List<String> clustersOfConfig) {
        if (chosen != DispatchStrategy.DEFAULT) copy.getSpec().setReservation(true);
        if (chosen == DispatchStrategy.INCREMENTAL || chosen == DispatchStrategy.EXTERNAL) {
            strategy = chosen;
            firstDispatch = dispatchedAt;
            configClusters = clustersOfConfig;
            remote = copy;
        }
    }
}
