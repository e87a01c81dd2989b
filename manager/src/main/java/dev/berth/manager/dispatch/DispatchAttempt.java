package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.StartingAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The current dispatch attempt of a workload: its id, the clusters holding a copy, and what the dispatcher
 * tracks per cluster (lease stamps and renewals, listings that missed it, acknowledged creates, reservations,
 * the latest report). Only its own transitions, each named for what happened, change it. What it knows of a
 * copy (its reservation, missed listings, a renewal to retry, the latest report) is kept only while the cluster
 * holds one: dropping the cluster forgets it. What this manager sent there (the create, lease stamps, and their
 * answers) is kept: a call still in flight may land after the drop, and the hold it needs reads those stamps.
 * Pure: the caller passes the time. Mutable; the dispatcher's state thread only.
 */
public final class DispatchAttempt {
    private final String id;
    /** 1 for the workload's first attempt, then one more per redispatch. */
    private final int number;
    /** The dispatch lease of this attempt (the manager's default, or longer by annotation). */
    private final Duration lease;
    /** What it asks of a cluster; null for an attempt recovered or adopted (not counted as in flight). */
    private final PlacementRequest request;
    /** When it was dispatched: until the clusters' capacity reports include it, it is counted as in flight. */
    private final Instant dispatchedAt;
    /** When this manager first knew the attempt (dispatched or recovered): listings before then may not show it. */
    private final Instant knownSince;

    private final Set<String> clusters = new LinkedHashSet<>();
    /** Set once a copy is admitted (single-phase) or its commit confirmed (two-phase). */
    private String winner;
    /**
     * Two-phase dispatch (AllAtOnce, Incremental, External): the copies are reservations. Per cluster, when its
     * copy was first seen Reserved; the cluster committed to (the winner-to-be), when its commit was last
     * sent, and whether it confirmed it. {@code winner} is set only once the commit is confirmed.
     */
    private final Map<String, Instant> reservedSince = new HashMap<>();
    private String committedTo;
    private Instant commitSentAt;
    private boolean commitConfirmed;
    /** Set for Incremental and External dispatch, which add clusters while no copy is committed. */
    private Instant firstDispatch;
    private DispatchStrategy strategy = DispatchStrategy.DEFAULT;
    private List<String> configClusters = List.of();
    /** Per cluster, the latest lease renew time sent there (or the dispatch time). */
    private final Map<String, Instant> lastRenewal = new HashMap<>();
    /** Clusters whose latest renewal failed (retried at the next poll) or is still in flight. */
    private final Set<String> renewalFailed = new HashSet<>();
    private final Set<String> renewing = new HashSet<>();
    /** An operator drains the cluster: the lease was expired on purpose, so the agent stops the attempt. */
    private boolean draining;
    /** Withdrawn for not starting in time (issue 20 rule 1): its lease was expired on purpose; not renewed, not mirrored. */
    private boolean withdrawing;
    /** Per cluster, what its latest listing reported of this attempt (phase and reason), for the start timeout. */
    private final Map<String, CopyReport> lastReport = new HashMap<>();
    /** Per cluster, how many listings in a row, each well after {@link #knownSince}, did not show the attempt. */
    private final Map<String, Integer> missedListings = new HashMap<>();
    /** Clusters that acknowledged the create or listed the attempt; anywhere else the create may still be on its way. */
    private final Set<String> confirmed = new HashSet<>();
    /** Clusters this manager sent a create to (stamped with its epoch); a recovered copy carries an older epoch. */
    private final Set<String> createsSent = new HashSet<>();
    /** Per cluster, when this manager learned that the cluster answered its create (only listings started later must show it). */
    private final Map<String, Instant> createAnsweredAt = new HashMap<>();

    private DispatchAttempt(String id, int number, Duration lease, PlacementRequest request, Instant dispatchedAt, Instant knownSince) {
        this.id = id;
        this.number = number;
        this.lease = lease;
        this.request = request;
        this.dispatchedAt = dispatchedAt;
        this.knownSince = knownSince;
    }

    /** A new attempt this manager dispatches now; its clusters join as their creates are sent ({@link #createSent}). */
    public static DispatchAttempt dispatched(String id, int number, Duration lease, PlacementRequest request, Instant now) {
        return new DispatchAttempt(id, number, lease, request, now, now);
    }

    /** An attempt read back from the workload's status.dispatch at a restart: its cluster confirmed it when it reported it. */
    public static DispatchAttempt recovered(String id, String cluster, boolean reported, int number, Duration lease, Instant now) {
        DispatchAttempt attempt = new DispatchAttempt(id, number, lease, null, null, now);
        attempt.clusters.add(cluster);
        if (reported) attempt.confirmed.add(cluster);
        attempt.lastRenewal.put(cluster, now);
        return attempt;
    }

    /** An attempt a cluster lists that this manager has no record of (a restart without a durable record): kept as found. */
    public static DispatchAttempt adopted(String id, String cluster, Duration lease, Instant now) {
        DispatchAttempt attempt = new DispatchAttempt(id, 1, lease, null, null, null);
        attempt.clusters.add(cluster);
        attempt.lastRenewal.put(cluster, now);
        return attempt;
    }

    // ---- what it is ------------------------------------------------------------------------

    public String id() {
        return id;
    }

    public int number() {
        return number;
    }

    public Duration lease() {
        return lease;
    }

    public PlacementRequest request() {
        return request;
    }

    public Instant dispatchedAt() {
        return dispatchedAt;
    }

    public Instant knownSince() {
        return knownSince;
    }

    /** The clusters holding a copy, in dispatch order; a read-only view: copy it to iterate while the attempt changes. */
    public Set<String> clusters() {
        return Collections.unmodifiableSet(clusters);
    }

    /** Whether a copy of attempt {@code attemptId} on the cluster is this attempt's own: held there, and the winner if one was chosen. */
    public boolean ownsCopy(String attemptId, String cluster) {
        return id.equals(attemptId) && clusters.contains(cluster) && (winner == null || winner.equals(cluster));
    }

    /** The clusters holding a copy other than {@code cluster}, as a copy. */
    public List<String> clustersBut(String cluster) {
        return clusters.stream().filter(c -> !c.equals(cluster)).toList();
    }

    public String winner() {
        return winner;
    }

    public String committedTo() {
        return committedTo;
    }

    public boolean commitConfirmed() {
        return commitConfirmed;
    }

    /** When it was first dispatched, for Incremental and External attempts (which widen); null for the others. */
    public Instant firstDispatch() {
        return firstDispatch;
    }

    public DispatchStrategy strategy() {
        return strategy;
    }

    public List<String> configClusters() {
        return configClusters;
    }

    public boolean draining() {
        return draining;
    }

    public boolean withdrawing() {
        return withdrawing;
    }

    /** Whether the cluster acknowledged its create or listed the attempt. */
    public boolean isConfirmed(String cluster) {
        return confirmed.contains(cluster);
    }

    /** Whether this manager sent the create there (stamped with its epoch), rather than recovering the copy. */
    public boolean sentCreateTo(String cluster) {
        return createsSent.contains(cluster);
    }

    /** The clusters whose latest renewal failed, as a copy (renewing again changes them). */
    public List<String> renewalsToRetry() {
        return List.copyOf(renewalFailed);
    }

    public boolean renewing(String cluster) {
        return renewing.contains(cluster);
    }

    /** Whether a renewal is still in flight anywhere (one could land after a deliberate expiry and undo it). */
    public boolean renewalInFlight() {
        return !renewing.isEmpty();
    }

    /** What the cluster's latest listing reported of the copy; phase and reason null when nothing was reported yet. */
    public CopyReport report(String cluster) {
        return lastReport.getOrDefault(cluster, new CopyReport(cluster, null, null));
    }

    // ---- what follows from it -------------------------------------------------------------

    /**
     * Whether a listing of the cluster that started at {@code listingStartedAt} must show the attempt: yes unless this manager's create
     * there is still in flight or was answered only after the listing started (a create queued behind a busy cluster's other calls can take
     * longer than the dispatcher's report lag). A copy this manager never sent (a recovered or adopted attempt) is held to every listing.
     */
    public boolean listingMustShow(String cluster, Instant listingStartedAt) {
        if (!createsSent.contains(cluster)) return true;
        Instant answered = createAnsweredAt.get(cluster);
        return answered != null && answered.isBefore(listingStartedAt);
    }

    /** The latest lease stamp sent to the cluster: its last renewal, else the dispatch time, else now. */
    public Instant lastStamp(String cluster, Instant now) {
        return lastRenewal.getOrDefault(cluster, dispatchedAt == null ? now : dispatchedAt);
    }

    /** When the copy on the cluster has surely stopped, or can no longer start: its last stamp + lease + margin. */
    public Instant leaseGoneAt(String cluster, Duration margin, Instant now) {
        return lastStamp(cluster, now).plus(lease).plus(margin);
    }

    /** A renew time that expires the lease on purpose (a drain, a withdrawal): one lease and a second before now. */
    public Instant expiredStamp(Instant now) {
        return now.minus(lease).minusSeconds(1);
    }

    /** What the commit step decides from ({@link CommitDecider}). */
    public CommitDecider.Copies copies() {
        return new CommitDecider.Copies(new ArrayList<>(clusters), reservedSince, committedTo, commitSentAt, commitConfirmed);
    }

    /** The attempt as the start timeout sees it ({@link StartWithdrawalPolicy#due}). */
    public StartingAttempt starting() {
        List<CopyReport> copies = clusters.stream().map(this::report).toList();
        return new StartingAttempt(id, dispatchedAt != null ? dispatchedAt : knownSince, winner != null, withdrawing || draining, copies);
    }

    // ---- what happened to it --------------------------------------------------------------

    /**
     * Sets the attempt up for its MultiKueue strategy; true when its copies are reservations (two-phase: only the one
     * committed ever starts). Incremental and External keep what they need to widen.
     */
    public boolean follow(DispatchStrategy chosen, List<String> clustersOfConfig) {
        if (chosen == DispatchStrategy.INCREMENTAL || chosen == DispatchStrategy.EXTERNAL) {
            strategy = chosen;
            firstDispatch = dispatchedAt;
            configClusters = List.copyOf(clustersOfConfig);
        }
        return chosen != DispatchStrategy.DEFAULT;
    }

    /** This manager sent the copy's create to the cluster, stamped {@code at}: the cluster holds a copy from now on. */
    public void createSent(String cluster, Instant at) {
        clusters.add(cluster);
        createsSent.add(cluster);
        lastRenewal.put(cluster, at);
    }

    /** The cluster acknowledged the create, learned {@code at}: it is confirmed, and listings started later must show it. */
    public void createAnswered(String cluster, Instant at) {
        confirmed.add(cluster);
        createAnsweredAt.put(cluster, at);
    }

    /** The cluster's listing shows the copy (confirmed), with what it reported (null: no report, the last one stays). */
    public void listed(String cluster, CopyReport report) {
        if (!clusters.contains(cluster)) return;
        confirmed.add(cluster);
        if (report != null) lastReport.put(cluster, report);
    }

    /** A listing of the cluster showed the copy, or could not be expected to: the count of missed listings starts over. */
    public void listingAccounted(String cluster) {
        missedListings.remove(cluster);
    }

    /** A listing of the cluster that must show the copy did not; returns how many in a row did not. */
    public int missedListing(String cluster) {
        return missedListings.merge(cluster, 1, Integer::sum);
    }

    /**
     * The copy on the cluster is no longer the attempt's (failed, withdrawn, missing, drained): what was known of the
     * copy goes too; what was sent there (create, stamps, renewals in flight) stays, for the holds that read it.
     */
    public void dropCluster(String cluster) {
        clusters.remove(cluster);
        reservedSince.remove(cluster);
        missedListings.remove(cluster);
        renewalFailed.remove(cluster);
        lastReport.remove(cluster);
    }

    /** Single-phase: the cluster admitted its copy first and is the winner (its other copies are withdrawn next: {@link #keepOnlyWinner}). */
    public void admittedOn(String cluster) {
        winner = cluster;
    }

    /** The winner's copy stays; every other copy is dropped ({@link #dropCluster}). Nothing happens before a winner. */
    public void keepOnlyWinner() {
        if (winner == null) return;
        for (String other : clustersBut(winner)) dropCluster(other);
    }

    /** The copy on the cluster reported Reserved (two-phase), first at {@code at}. */
    public void reserved(String cluster, Instant at) {
        if (clusters.contains(cluster)) reservedSince.putIfAbsent(cluster, at);
    }

    /**
     * The commit of the cluster's reservation was sent at {@code at} (also its lease stamp). Returns true when the
     * cluster was chosen just now (no commit before): the choice is to be recorded before the commit is acted on.
     */
    public boolean commitSent(String cluster, Instant at) {
        boolean chosenNow = committedTo == null;
        if (chosenNow) committedTo = cluster;
        commitSentAt = at;
        lastRenewal.put(cluster, at);
        return chosenNow;
    }

    /** The cluster confirmed the commit of its copy: that copy is the winner, and the other copies are withdrawn next. */
    public void commitConfirmedBy(String cluster) {
        committedTo = cluster;
        commitConfirmed = true;
        winner = cluster;
        confirmed.add(cluster);
    }

    /** A listing shows the cluster's copy already committed (an earlier commit's answer lost, or a previous leader's). */
    public void listedCommitted(String cluster) {
        clusters.add(cluster);
        commitConfirmedBy(cluster);
    }

    /** The cluster refused the commit (its copy gone, another attempt there, a newer leader): it is dropped, another may win. */
    public void commitRefused(String cluster) {
        committedTo = null;
        commitSentAt = null;
        dropCluster(cluster);
    }

    /** A renewal of the cluster's lease, stamped {@code stamp}, was sent and is in flight. */
    public void renewalStarted(String cluster, Instant stamp) {
        lastRenewal.put(cluster, stamp);
        renewing.add(cluster);
    }

    public void renewalSucceeded(String cluster) {
        renewing.remove(cluster);
        renewalFailed.remove(cluster);
    }

    /** The renewal failed (a timeout, a brief error): it is retried at the next poll ({@link #renewalsToRetry}). */
    public void renewalFailed(String cluster) {
        renewing.remove(cluster);
        if (clusters.contains(cluster)) renewalFailed.add(cluster);
    }

    /** The cluster no longer has the copy (not found): nothing to renew there, nothing to retry. */
    public void renewalFoundNoCopy(String cluster) {
        renewing.remove(cluster);
    }

    /** A lease stamp was sent to the cluster at {@code stamp} outside the renewal cycle (a new leader's epoch, a call-off). */
    public void stamped(String cluster, Instant stamp) {
        lastRenewal.put(cluster, stamp);
    }

    /** An operator drains a cluster holding the attempt: its lease is being expired on purpose. */
    public void drain() {
        draining = true;
    }

    /** The drain's expiry did not reach the cluster: tried again at the next round. */
    public void drainFailed() {
        draining = false;
    }

    /** No worker started the attempt in time: its leases are being expired on purpose (issue 20 rule 1). */
    public void withdrawForStartTimeout() {
        withdrawing = true;
    }

    /** An agent started the copy before the expired lease reached it: the withdrawal is called off. */
    public void withdrawalCalledOff() {
        withdrawing = false;
    }
}
