package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.manager.dispatch.LostClusterPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.time.Instant;
import dev.berth.manager.core.WorkloadStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves work off worker clusters that are lost or drained, on the state thread. A workload on a
 * cluster lost for longer than workerLostTimeout (and past its lease plus margin) is evicted with
 * reason ClusterLost, which releases its quota and requeues it; placement then skips the lost
 * cluster and the workload goes elsewhere under a new attempt id. A drain expires the leases of the
 * cluster's attempts on purpose, so the agent stops them, and evicts each once it reports it stopped.
 */
final class ClusterFailover {
    private static final Logger log = LoggerFactory.getLogger(ClusterFailover.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final DispatchOptions options;
    private final MultiKueueStatus status;
    private final LostClusterPolicy lostPolicy;
    /** Where cordon, drain, uncordon and lost clusters are recorded (Events in the store, in a running manager). */
    final ClusterActionEvents events;
    /** Workloads evicted from a cluster whose agent is lost but whose API answers, held until their old pods stop. */
    final OldAttemptFences fences;
    /** Clusters currently lost, so that ClusterLost is recorded once per loss. */
    private final Set<String> lostClusters = new HashSet<>();

    ClusterFailover(DispatchController dispatcher, ManagerState state, Clock clock, DispatchOptions options, MultiKueueStatus status,
                    ClusterActionEvents events) {
        this.dispatcher = dispatcher;
        this.events = events;
        this.state = state;
        this.clock = clock;
        this.options = options;
        this.status = status;
        this.lostPolicy = new LostClusterPolicy(options.failover());
        this.fences = new OldAttemptFences(clock, options.failover().workerLostTimeout(), dispatcher.epoch(),
                (key, held) -> DispatchHolds.write(state, key, held));
    }

    void healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
        String message = health.message() + (lostSince == null ? "" : " (lost since " + StatusJson.timestamp(lostSince) + ")");
        status.clusterCondition(cluster, Conditions.BERTH_HEALTHY, health.health() == ClusterHealth.HEALTHY, health.health().reason(), message);
        if (health.health().lost() && lostClusters.add(cluster)) {
            events.warning(cluster, Conditions.Reasons.CLUSTER_LOST, "worker cluster " + cluster + " lost (" + health.health().reason()
                    + "): " + message + "; its workloads move elsewhere after workerLostTimeout "
                    + options.failover().workerLostTimeout().toSeconds() + "s");
        } else if (!health.health().lost()) {
            lostClusters.remove(cluster);
        }
    }

    private String clusterQueueOf(WorkloadKey key) {
        WorkloadStatus workload = state.controller.statusOf(key);
        return workload == null || workload.admission() == null ? "" : workload.admission().clusterQueue();
    }

    /** Whether an attempt's lease on a cluster is still renewed (see {@link LostClusterPolicy#keepRenewing}). */
    boolean keepRenewing(String cluster, DispatchAttempt attempt) {
        return lostPolicy.keepRenewing(dispatcher.clusters.lostSince(cluster), attempt.lease(), clock.instant());
    }

    /** Evicts the workloads whose every copy is on a cluster lost long enough. Called each poll interval. */
    void evictFromLostClusters() {
        WorkerClusters clusters = dispatcher.clusters;
        Instant now = clock.instant();
        boolean evicted = false;
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : new ArrayList<>(dispatcher.attempts().entrySet())) {
            DispatchAttempt attempt = entry.getValue();
            if (attempt.clusters().isEmpty()) continue;
            String lostCluster = null;
            for (String cluster : attempt.clusters()) {
                HealthAssessment health = clusters.health(cluster);
                Instant lostSince = clusters.lostSince(cluster);
                Instant renewed = attempt.lastStamp(cluster, now);
                if (!lostPolicy.shouldEvict(health.health(), lostSince, renewed, attempt.lease(), now)) {
                    lostCluster = null;
                    break;
                }
                lostCluster = cluster;
            }
            if (lostCluster == null) continue;
            evict(entry.getKey(), attempt, lostCluster, clusters);
            evicted = true;
        }
        for (var snapshot : clusters.snapshots()) {
            if (snapshot.draining()) drain(snapshot.name());
        }
        // after the evictions, so a fence raised now starts deleting the old attempt's objects at once
        Set<WorkloadKey> fenceChanged = new HashSet<>();
        fences.advance(clusters, events, fenceChanged::add);
        fenceChanged.forEach(dispatcher::fenceChanged);
        if (evicted) state.reschedule();
        if (!fenceChanged.isEmpty()) dispatcher.reconcile();
    }

    private void evict(WorkloadKey key, DispatchAttempt attempt, String cluster, WorkerClusters clusters) {
        String message = LostClusterPolicy.message(cluster, clusters.health(cluster), clusters.lostSince(cluster),
                options.failover().workerLostTimeout());
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .addKeyValue("attemptNumber", attempt.number()).log("evicting workload from lost cluster: " + message);
        DispatchHistory.record(state, key, attempt.id(), cluster, attempt.number(), Conditions.Reasons.CLUSTER_LOST, message, clock.instant());
        dispatcher.listener.failedOver(clusterQueueOf(key), cluster);
        fenceOldPods(key, attempt, clusters);
        dispatcher.abandon(key, attempt, "cluster lost");
        state.controller.evict(key, Conditions.Reasons.CLUSTER_LOST, message);
    }

    /**
     * Where the agent is lost but the API answers, the old attempt's pods may run on (the agent no
     * longer enforces its lease): hold the workload back until the manager has deleted them there.
     */
    private void fenceOldPods(WorkloadKey key, DispatchAttempt attempt, WorkerClusters clusters) {
        for (String cluster : attempt.clusters()) {
            if (clusters.health(cluster).health() != ClusterHealth.AGENT_LOST) continue;
            fences.raise(key, cluster, attempt.id(), attempt.leaseGoneAt(cluster, options.failover().leaseMargin(), clock.instant()));
            events.record(cluster, Conditions.Reasons.OLD_PODS_RUNNING, "workload " + key + ": " + fences.hold(key));
        }
    }

    /** The operator changed a cluster's marks (annotations berth.dev/cordon, berth.dev/drain). */
    void marksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
        if (draining && !wasDraining) {
            record(cluster, Conditions.Reasons.DRAINING, "cluster " + cluster + " drained: no new dispatch; its workloads are stopped and requeued elsewhere");
            drain(cluster);
        } else if (cordoned && !wasCordoned) {
            record(cluster, Conditions.Reasons.CORDONED, "cluster " + cluster + " cordoned: no new dispatch; running workloads stay");
        } else if (!cordoned && (wasCordoned || wasDraining)) {
            record(cluster, Conditions.Reasons.UNCORDONED, "cluster " + cluster + " uncordoned: dispatch resumes");
        }
        String reason = draining ? Conditions.Reasons.DRAINING : cordoned ? Conditions.Reasons.CORDONED : Conditions.Reasons.UNCORDONED;
        status.clusterCondition(cluster, Conditions.BERTH_CORDONED, cordoned || draining, reason,
                draining ? "draining: workloads move to other clusters" : cordoned ? "cordoned: no new dispatch" : "schedulable");
        if (!cordoned && !draining) state.reschedule();
    }

    private void record(String cluster, String reason, String message) {
        log.atInfo().addKeyValue("cluster", cluster).addKeyValue("reason", reason).log(message);
        events.record(cluster, reason, message);
    }

    /**
     * Expires the lease of every attempt on the cluster (its renew time is set far enough back), so the
     * agent stops it and reports it Stopped; {@link #drained} then evicts it. A copy of an attempt that
     * also has copies elsewhere and no winner yet is simply deleted.
     */
    private void drain(String cluster) {
        WorkerClusters clusters = dispatcher.clusters;
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : new ArrayList<>(dispatcher.attempts().entrySet())) {
            WorkloadKey key = entry.getKey();
            DispatchAttempt attempt = entry.getValue();
            if (!attempt.clusters().contains(cluster) || attempt.draining()) continue;
            if (attempt.clusters().size() > 1 && attempt.winner() == null) {
                attempt.dropCluster(cluster);
                clusters.calls(cluster).ifPresent(calls -> calls.delete(key.namespace(), key.name()));
                continue;
            }
            attempt.drain();
            Instant expired = attempt.expiredStamp(clock.instant());
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("draining: lease expired on purpose so the agent stops the attempt");
            clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(
                    calls.renew(key.namespace(), key.name(), StatusJson.timestamp(expired), dispatcher.epoch()), done -> {
                        if (done.succeeded()) return;
                        attempt.drainFailed();
                        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                                .log("drain: lease not expired yet, retried next round: " + done.cause().getMessage());
                    }));
        }
    }

    /** The agent stopped an attempt being drained: evict it so it is requeued and dispatched elsewhere. */
    void drained(WorkloadKey key, DispatchAttempt attempt, String cluster) {
        String message = "worker cluster " + cluster + " drained by an operator; attempt " + attempt.id() + " stopped there and requeued";
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id()).log(message);
        dispatcher.listener.failedOver(clusterQueueOf(key), cluster);
        dispatcher.abandon(key, attempt, "drained");
        state.controller.evict(key, Conditions.Reasons.CLUSTER_DRAINED, message);
    }
}
