package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.ClusterHealthSnapshot;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.FailoverCommand;
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
import dev.berth.manager.dispatch.FailoverDecision;
import dev.berth.manager.dispatch.FailoverDecision.Marks;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs what happens to the attempts on worker clusters that are lost, drained, cordoned or healthy again, on the state
 * thread. {@link FailoverDecision} (pure) decides, and applies the attempts' transitions; this edge hands it the clusters'
 * health, the operator's marks, the poll's tick and a drained copy's stop, with the time, and runs its commands: the
 * clusters' conditions and events, the workload's dispatch history, metrics, the fences on old pods
 * ({@link OldAttemptFences}), abandoning an attempt and evicting its workload (reason ClusterLost or ClusterDrained:
 * quota released, requeued, placed elsewhere under a new attempt id), and the calls a drain makes (expire a lease on
 * purpose, delete a copy).
 */
final class ClusterFailover {
    private static final Logger log = LoggerFactory.getLogger(ClusterFailover.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final MultiKueueStatus status;
    private final FailoverDecision decision;
    /** Where cordon, drain, uncordon and lost clusters are recorded (Events in the store, in a running manager). */
    final ClusterActionEvents events;
    /** Workloads held back from redispatch while an old attempt of theirs may still run, or still start, on a cluster. */
    final OldAttemptFences fences;

    ClusterFailover(DispatchController dispatcher, ManagerState state, Clock clock, DispatchOptions options, MultiKueueStatus status,
                    ClusterActionEvents events) {
        this.dispatcher = dispatcher;
        this.events = events;
        this.state = state;
        this.clock = clock;
        this.status = status;
        this.decision = new FailoverDecision(options.failover());
        this.fences = new OldAttemptFences(clock, options.failover().workerLostTimeout(), dispatcher.epoch(),
                (key, held) -> DispatchHolds.write(state, key, held));
    }

    /** The cluster's health was assessed (every poll): its condition, and a Warning the first time it is lost. */
    void healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
        decision.healthChanged(cluster, health, lostSince).forEach(command -> run(command, clock.instant(), null));
    }

    /** Whether the cluster's agent is lost, or was last seen lost before its API stopped answering ({@link FailoverDecision#fenceHealth}). */
    boolean agentLost(String cluster) {
        return decision.fenceHealth(cluster, dispatcher.clusters.health(cluster).health()) == ClusterHealth.AGENT_LOST;
    }

    /** Whether an attempt's lease on a cluster is still renewed ({@link FailoverDecision#keepRenewing}). */
    boolean keepRenewing(String cluster, DispatchAttempt attempt) {
        return decision.keepRenewing(dispatcher.clusters.lostSince(cluster), attempt, clock.instant());
    }

    /** The poll's tick ({@link FailoverDecision#poll}): lost clusters' workloads evicted, drains repeated, fences advanced. */
    void evictFromLostClusters() {
        WorkerClusters clusters = dispatcher.clusters;
        Instant now = clock.instant();
        List<String> draining = clusters.snapshots().stream().filter(ClusterHealthSnapshot::draining).map(ClusterHealthSnapshot::name).toList();
        Set<WorkloadKey> fenceChanged = new HashSet<>();
        decision.poll(dispatcher.attempts(), new HealthOf(clusters), draining, now, command -> run(command, now, fenceChanged));
        // after the whole tick (the rescheduling included), the workloads whose fences changed are placed again
        if (!fenceChanged.isEmpty()) dispatcher.reconcile();
    }

    /** What the decision reads of the worker clusters: their health and since when they are lost. */
    private record HealthOf(WorkerClusters clusters) implements FailoverDecision.Clusters {
        @Override
        public HealthAssessment health(String cluster) {
            return clusters.health(cluster);
        }

        @Override
        public Instant lostSince(String cluster) {
            return clusters.lostSince(cluster);
        }
    }

    /** The operator changed a cluster's marks (annotations berth.dev/cordon, berth.dev/drain). */
    void marksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
        Instant now = clock.instant();
        decision.marksChanged(cluster, new Marks(wasCordoned, wasDraining), new Marks(cordoned, draining), dispatcher.attempts(), now,
                command -> run(command, now, null));
    }

    /** The agent stopped an attempt being drained: evict it so it is requeued and dispatched elsewhere. */
    void drained(WorkloadKey key, DispatchAttempt attempt, String cluster) {
        decision.drained(key, attempt, cluster).forEach(command -> run(command, clock.instant(), null));
    }

    /** Runs one command; {@code fenceChanged} collects the workloads whose fences changed in a poll (null outside one). */
    private void run(FailoverCommand command, Instant now, Set<WorkloadKey> fenceChanged) {
        if (command instanceof HealthCondition condition) {
            status.clusterCondition(condition.cluster(), Conditions.BERTH_HEALTHY, condition.healthy(), condition.reason(), condition.message());
        } else if (command instanceof RecordClusterLost lost) {
            events.warning(lost.cluster(), Conditions.Reasons.CLUSTER_LOST, lost.message());
        } else if (command instanceof RecordMark mark) {
            log.atInfo().addKeyValue("cluster", mark.cluster()).addKeyValue("reason", mark.reason()).log(mark.message());
            events.record(mark.cluster(), mark.reason(), mark.message());
        } else if (command instanceof CordonCondition condition) {
            status.clusterCondition(condition.cluster(), Conditions.BERTH_CORDONED, condition.cordoned(), condition.reason(), condition.message());
        } else if (command instanceof RecordHistory history) {
            DispatchAttempt attempt = history.attempt();
            DispatchHistory.record(state, history.key(), attempt.id(), history.cluster(), attempt.number(), history.outcome(), history.message(), now);
        } else if (command instanceof CountFailover failover) {
            dispatcher.listener.failedOver(clusterQueueOf(failover.key()), failover.cluster());
        } else if (command instanceof FenceOldPods fence) {
            fences.raise(fence.key(), fence.cluster(), fence.attemptId(), fence.leaseGoneAt(), true);
            events.record(fence.cluster(), Conditions.Reasons.OLD_PODS_RUNNING, "workload " + fence.key() + ": " + fences.hold(fence.key()));
        } else if (command instanceof Abandon abandon) {
            dispatcher.abandon(abandon.key(), abandon.attempt(), abandon.why());
        } else if (command instanceof Evict evict) {
            evict(evict);
        } else if (command instanceof DeleteCopy delete) {
            dispatcher.clusters.calls(delete.cluster()).ifPresent(calls -> calls.delete(delete.key().namespace(), delete.key().name()));
        } else if (command instanceof ExpireLease expire) {
            expireLease(expire);
        } else if (command instanceof AdvanceFences) {
            WorkerClusters clusters = dispatcher.clusters;
            fences.advance(clusters, cluster -> decision.fenceHealth(cluster, clusters.health(cluster).health()), events, fenceChanged::add);
            fenceChanged.forEach(dispatcher::fenceChanged);
        } else if (command instanceof Reschedule) {
            state.reschedule();
        }
    }

    /** Evicts the workload, logged as before the decision moved out: a warning for a lost cluster, info for a drain. */
    private void evict(Evict evict) {
        boolean lost = Conditions.Reasons.CLUSTER_LOST.equals(evict.reason());
        (lost ? log.atWarn() : log.atInfo()).addKeyValue("workload", evict.key()).addKeyValue("cluster", evict.cluster())
                .addKeyValue("attempt", evict.attempt().id()).addKeyValue("attemptNumber", evict.attempt().number())
                .log(lost ? "evicting workload from lost cluster: " + evict.message() : evict.message());
        state.controller.evict(evict.key(), evict.reason(), evict.message());
    }

    /** A drain: the copy's lease expired on purpose so its agent stops it; an expiry that fails is tried again at the next poll. */
    private void expireLease(ExpireLease expire) {
        WorkloadKey key = expire.key();
        DispatchAttempt attempt = expire.attempt();
        WorkerClusters clusters = dispatcher.clusters;
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", expire.cluster()).addKeyValue("attempt", attempt.id())
                .log("draining: lease expired on purpose so the agent stops the attempt");
        clusters.calls(expire.cluster()).ifPresent(calls -> clusters.onStateThread(
                calls.renew(key.namespace(), key.name(), StatusJson.timestamp(expire.stamp()), dispatcher.epoch()), done -> {
                    if (done.succeeded()) return;
                    decision.expiryFailed(attempt);
                    log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", expire.cluster()).addKeyValue("attempt", attempt.id())
                            .log("drain: lease not expired yet, retried next round: " + done.cause().getMessage());
                }));
    }

    private String clusterQueueOf(WorkloadKey key) {
        WorkloadStatus workload = state.controller.statusOf(key);
        return workload == null || workload.admission() == null ? "" : workload.admission().clusterQueue();
    }
}
