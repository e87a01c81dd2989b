package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.util.Map;
import java.util.Set;

/** What a listing decision ({@link ListingDecision}) asks the edge to do, in the order it must be done. */
public sealed interface ListingCommand {

    /**
     * The cluster was dropped from the attempt (its copy missing from the listings and never admitted): hold the
     * workload until the copy's lease has run out; with {@code lastCopyGone}, retire the attempt and place it again.
     */
    record DropCluster(WorkloadKey key, String cluster, DispatchAttempt attempt, String why, boolean lastCopyGone) implements ListingCommand {}

    /** Unconfirmed creates on the cluster that the agent's epoch and the listing show can no longer land. */
    record SupersedeFences(String cluster, SupersededCreate.Poll poll) implements ListingCommand {}

    /**
     * What the listing shows of the copies being withdrawn for not starting in time: the workloads whose current
     * attempt it lists, and those copies (whose reports are their own attempt's).
     */
    record ListedWithdrawals(String cluster, Set<WorkloadKey> seen, Map<WorkloadKey, ListedCopy> reports) implements ListingCommand {}

    /** A restarted manager with no record of the attempt adopted it (its workload still holds quota). */
    record Adopted(WorkloadKey key, String cluster, DispatchAttempt attempt) implements ListingCommand {}

    /** The listing shows the cluster's copy committed, before this manager saw its commit confirmed: the commit's consequences follow. */
    record ListedCommitted(WorkloadKey key, String cluster, DispatchAttempt attempt) implements ListingCommand {}

    /** A listed copy that is not the attempt's current copy on the cluster: deleted there. */
    record DeleteStale(WorkloadKey key, String cluster, String attemptId, String why) implements ListingCommand {}

    /** The copy carries an older manager's fencing epoch: stamp this manager's. */
    record StampEpoch(WorkloadKey key, String cluster, DispatchAttempt attempt) implements ListingCommand {}

    /** The copy's own report, mirrored onto the workload unless unchanged since the last mirror. */
    record Mirror(WorkloadKey key, String cluster, DispatchAttempt attempt, ListedCopy copy) implements ListingCommand {}
}
