package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.FailoverCommand.Abandon;
import dev.berth.manager.dispatch.FailoverCommand.AdvanceFences;
import dev.berth.manager.dispatch.FailoverCommand.CordonCondition;
import dev.berth.manager.dispatch.FailoverCommand.CountFailover;
import dev.berth.manager.dispatch.FailoverCommand.DeleteCopy;
import dev.berth.manager.dispatch.FailoverCommand.Evict;
import dev.berth.manager.dispatch.FailoverCommand.ExpireLease;
import dev.berth.manager.dispatch.FailoverCommand.FenceOldPods;
import dev.berth.manager.dispatch.FailoverCommand.HealthCondition;
import dev.berth.manager.dispatch.FailoverCommand.RecordClusterLost;
import dev.berth.manager.dispatch.FailoverCommand.RecordHistory;
import dev.berth.manager.dispatch.FailoverCommand.RecordMark;
import dev.berth.manager.dispatch.FailoverCommand.Reschedule;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What happens to the attempts on a worker cluster that is lost, drained, cordoned or healthy again (docs/failover.md,
 * "workerLostTimeout" and "Operator actions"): the cluster's health, an operator's marks, the poll's tick and a drained
 * copy's stop in; the attempts' transitions applied and the edge's commands out, in order.
 * <ul>
 *   <li>A workload whose every copy is on a cluster lost for longer than workerLostTimeout, and past the last lease stamp
 *   sent there plus lease and margin ({@link LostClusterPolicy}), is recorded ClusterLost in its history, counted, fenced
 *   on each cluster whose agent is lost, or was last seen lost before its API stopped answering (its pods may run on),
 *   abandoned and evicted.</li>
 *   <li>A drain expires the lease of each attempt on the cluster on purpose, so its agent stops it; a copy of an attempt
 *   that has copies elsewhere and no winner is dropped and deleted instead. A drained copy reported stopped is abandoned
 *   and its workload evicted (ClusterDrained). An expiry that did not reach the cluster is tried again at the next poll.</li>
 *   <li>A cordon only records itself; an uncordon places the waiting workloads again. A cluster's loss is recorded once.</li>
 * </ul>
 * Multi-step events hand their commands to {@code out} as they are decided: the edge runs each before the next is
 * decided, since what it runs (an abandon, an eviction) changes the attempts the next step reads. Pure; the state
 * thread only.
 */
public final class FailoverDecision {

    /** What the decision reads of the worker clusters: each one's health and since when it is lost (null: not lost). */
    public interface Clusters {
        HealthAssessment health(String cluster);

        Instant lostSince(String cluster);
    }

    /** An operator's marks on a cluster (annotations berth.dev/cordon and berth.dev/drain). */
    public record Marks(boolean cordoned, boolean draining) {}

    private final FailoverOptions options;
    private final LostClusterPolicy lostPolicy;
    /** Clusters currently lost, so that ClusterLost is recorded once per loss. */
    private final Set<String> lostClusters = new HashSet<>();
    /**
     * Clusters whose agent was last seen lost: an API that answered without a fresh heartbeat. An Unreachable assessment
     * afterwards says nothing of the agent, so it keeps the mark; only a fresh heartbeat (Healthy or Degraded) lifts it.
     */
    private final Set<String> agentLastSeenLost = new HashSet<>();

    public FailoverDecision(FailoverOptions options) {
        this.options = options;
        this.lostPolicy = new LostClusterPolicy(options);
    }

    /** The cluster's health was assessed: its condition, and a ClusterLost record when it has just become lost. */
    public List<FailoverCommand> healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
        List<FailoverCommand> commands = new ArrayList<>();
        String message = health.message() + (lostSince == null ? "" : " (lost since " + lostSince.truncatedTo(ChronoUnit.SECONDS) + ")");
        commands.add(new HealthCondition(cluster, health.health() == ClusterHealth.HEALTHY, health.health().reason(), message));
        if (health.health().lost() && lostClusters.add(cluster)) {
            commands.add(new RecordClusterLost(cluster, "worker cluster " + cluster + " lost (" + health.health().reason() + "): " + message
                    + "; its workloads move elsewhere after workerLostTimeout " + options.workerLostTimeout().toSeconds() + "s"));
        } else if (!health.health().lost()) {
            lostClusters.remove(cluster);
        }
        if (health.health() == ClusterHealth.AGENT_LOST) agentLastSeenLost.add(cluster);
        else if (!health.health().lost()) agentLastSeenLost.remove(cluster);
        return commands;
    }

    /**
     * The health that the fences on a cluster's old attempts go by: Unreachable after the agent was seen lost stays
     * AgentLost, for no agent is known to stop its copy when the lease runs out (the partition path's assumption); the
     * pods must be seen gone, or the wait run out ({@link RedispatchGate}).
     */
    public ClusterHealth fenceHealth(String cluster, ClusterHealth health) {
        return health == ClusterHealth.UNREACHABLE && agentLastSeenLost.contains(cluster) ? ClusterHealth.AGENT_LOST : health;
    }

    /** Whether the attempt's lease on a cluster lost since {@code lostSince} (null: not lost) is still renewed ({@link LostClusterPolicy#keepRenewing}). */
    public boolean keepRenewing(Instant lostSince, DispatchAttempt attempt, Instant now) {
        return lostPolicy.keepRenewing(lostSince, attempt.lease(), now);
    }

    /**
     * The poll's tick: evicts the workloads whose every copy is on a cluster lost long enough, drains again each cluster in
     * {@code draining} (an attempt whose expiry failed, or that arrived since), then has the fences advanced (after the
     * evictions, so a fence raised now starts deleting the old attempt's objects at once), then reschedules if it evicted.
     *
     * @param attempts the live map of current attempts (the edge's abandon removes from it)
     */
    public void poll(CurrentAttempts attempts, Clusters clusters, List<String> draining, Instant now,
            Consumer<FailoverCommand> out) {
        boolean evicted = false;
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : attempts.entries()) {
            String lostCluster = lostEverywhere(entry.getValue(), clusters, now);
            if (lostCluster == null) continue;
            evict(entry.getKey(), entry.getValue(), lostCluster, clusters, now, out);
            evicted = true;
        }
        for (String cluster : draining) drain(cluster, attempts, now, out);
        out.accept(new AdvanceFences());
        if (evicted) out.accept(new Reschedule());
    }

    /** The last of the attempt's clusters when every one of them is lost long enough to evict it; else null. */
    private String lostEverywhere(DispatchAttempt attempt, Clusters clusters, Instant now) {
        String lostCluster = null;
        for (String cluster : attempt.clusters()) {
            Instant renewed = attempt.lastStamp(cluster, now);
            if (!lostPolicy.shouldEvict(clusters.health(cluster).health(), clusters.lostSince(cluster), renewed, attempt.lease(), now)) {
                return null;
            }
            lostCluster = cluster;
        }
        return lostCluster;
    }

    private void evict(WorkloadKey key, DispatchAttempt attempt, String cluster, Clusters clusters, Instant now, Consumer<FailoverCommand> out) {
        String message = LostClusterPolicy.message(cluster, clusters.health(cluster), clusters.lostSince(cluster), options.workerLostTimeout());
        out.accept(new RecordHistory(key, attempt, cluster, Conditions.Reasons.CLUSTER_LOST, message));
        out.accept(new CountFailover(key, cluster));
        // where the agent is lost, or was last seen lost, the old pods may run on (no agent enforces the lease): fenced first
        for (String on : List.copyOf(attempt.clusters())) {
            if (fenceHealth(on, clusters.health(on).health()) != ClusterHealth.AGENT_LOST) continue;
            out.accept(new FenceOldPods(key, on, attempt.id(), attempt.leaseGoneAt(on, options.leaseMargin(), now)));
        }
        out.accept(new Abandon(key, attempt, "cluster lost"));
        out.accept(new Evict(key, attempt, cluster, Conditions.Reasons.CLUSTER_LOST, message));
    }

    /**
     * The operator changed the cluster's marks: a new drain is recorded and drains the cluster; a new cordon is recorded;
     * the marks lifted are recorded as an uncordon. The Cordoned condition follows, and an uncordoned cluster has the
     * waiting workloads placed again.
     */
    public void marksChanged(String cluster, Marks before, Marks after, CurrentAttempts attempts, Instant now,
            Consumer<FailoverCommand> out) {
        if (after.draining() && !before.draining()) {
            out.accept(new RecordMark(cluster, Conditions.Reasons.DRAINING,
                    "cluster " + cluster + " drained: no new dispatch; its workloads are stopped and requeued elsewhere"));
            drain(cluster, attempts, now, out);
        } else if (after.cordoned() && !before.cordoned()) {
            out.accept(new RecordMark(cluster, Conditions.Reasons.CORDONED, "cluster " + cluster + " cordoned: no new dispatch; running workloads stay"));
        } else if (!after.cordoned() && (before.cordoned() || before.draining())) {
            out.accept(new RecordMark(cluster, Conditions.Reasons.UNCORDONED, "cluster " + cluster + " uncordoned: dispatch resumes"));
        }
        String reason = after.draining() ? Conditions.Reasons.DRAINING : after.cordoned() ? Conditions.Reasons.CORDONED : Conditions.Reasons.UNCORDONED;
        out.accept(new CordonCondition(cluster, after.cordoned() || after.draining(), reason,
                after.draining() ? "draining: workloads move to other clusters" : after.cordoned() ? "cordoned: no new dispatch" : "schedulable"));
        if (!after.cordoned() && !after.draining()) out.accept(new Reschedule());
    }

    /**
     * Expires the lease of every attempt on the cluster not already being drained (its renew time set a lease and a second
     * back), so the agent stops it and reports it Stopped ({@link #drained}). A copy of an attempt that also has copies
     * elsewhere and no winner yet is dropped from it and deleted.
     */
    private static void drain(String cluster, CurrentAttempts attempts, Instant now, Consumer<FailoverCommand> out) {
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : attempts.entries()) {
            WorkloadKey key = entry.getKey();
            DispatchAttempt attempt = entry.getValue();
            if (!attempt.clusters().contains(cluster) || attempt.draining()) continue;
            if (attempt.clusters().size() > 1 && attempt.winner() == null) {
                attempt.dropCluster(cluster);
                out.accept(new DeleteCopy(key, cluster));
                continue;
            }
            attempt.drain();
            out.accept(new ExpireLease(key, cluster, attempt, attempt.expiredStamp(now)));
        }
    }

    /** The drain's expiry did not reach the cluster: the attempt is drained again at the next poll. */
    public void expiryFailed(DispatchAttempt attempt) {
        attempt.drainFailed();
    }

    /** The agent stopped a copy being drained: the workload is counted, its attempt abandoned, and it is evicted (requeued elsewhere). */
    public List<FailoverCommand> drained(WorkloadKey key, DispatchAttempt attempt, String cluster) {
        String message = "worker cluster " + cluster + " drained by an operator; attempt " + attempt.id() + " stopped there and requeued";
        return List.of(new CountFailover(key, cluster), new Abandon(key, attempt, "drained"),
                new Evict(key, attempt, cluster, Conditions.Reasons.CLUSTER_DRAINED, message));
    }
}
