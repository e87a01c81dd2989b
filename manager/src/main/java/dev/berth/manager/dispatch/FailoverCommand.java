package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;

/** What a failover decision ({@link FailoverDecision}) asks the edge to do, in the order it must be done. */
public sealed interface FailoverCommand {

    /** Set the cluster's berth.dev/Healthy condition (status True only when healthy). */
    record HealthCondition(String cluster, boolean healthy, String reason, String message) implements FailoverCommand {}

    /** The cluster became lost: record a Warning ClusterLost for it (once per loss). */
    record RecordClusterLost(String cluster, String message) implements FailoverCommand {}

    /** An operator's mark took effect (reason Draining, Cordoned or Uncordoned): log it and record it as the cluster's event. */
    record RecordMark(String cluster, String reason, String message) implements FailoverCommand {}

    /** Set the cluster's berth.dev/Cordoned condition. */
    record CordonCondition(String cluster, boolean cordoned, String reason, String message) implements FailoverCommand {}

    /** Record the attempt in the workload's status.dispatchHistory with this outcome. */
    record RecordHistory(WorkloadKey key, DispatchAttempt attempt, String cluster, String outcome, String message) implements FailoverCommand {}

    /** Count the workload as failed over from the cluster (berth_failovers_total). */
    record CountFailover(WorkloadKey key, String cluster) implements FailoverCommand {}

    /**
     * The attempt's agent on the cluster is lost but its API answers, so its pods may run on: hold the workload back
     * until the manager has deleted them there ({@link OldAttemptFence#raised}), and record OldPodsRunning.
     */
    record FenceOldPods(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt) implements FailoverCommand {}

    /** Retire the attempt and withdraw its copies (a copy whose create was never confirmed also holds the workload). */
    record Abandon(WorkloadKey key, DispatchAttempt attempt, String why) implements FailoverCommand {}

    /** Evict the workload (reason ClusterLost or ClusterDrained): its quota is released and it is requeued. */
    record Evict(WorkloadKey key, DispatchAttempt attempt, String cluster, String reason, String message) implements FailoverCommand {}

    /** Delete the copy on a drained cluster of an attempt that has copies elsewhere and no winner (it was dropped from the attempt). */
    record DeleteCopy(WorkloadKey key, String cluster) implements FailoverCommand {}

    /**
     * Send the copy a renew time that expires its lease ({@code stamp}), so its agent stops it and reports it Stopped;
     * should that call fail, tell {@link FailoverDecision#expiryFailed} (the drain is tried again at the next poll).
     */
    record ExpireLease(WorkloadKey key, String cluster, DispatchAttempt attempt, Instant stamp) implements FailoverCommand {}

    /** Decide the fences on old attempts ({@link FenceDecision#advance}), after this poll's evictions raised theirs. */
    record AdvanceFences() implements FailoverCommand {}

    /** Run a scheduling pass: evicted workloads are admitted again, and waiting ones placed again (a cluster was uncordoned). */
    record Reschedule() implements FailoverCommand {}
}
