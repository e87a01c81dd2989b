package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.ClusterCalls;
import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchListener;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.InFlightDispatches;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MultiKueue's admission check, done by Berth: places workloads that hold quota on worker clusters,
 * mirrors the remote attempt's status back, and deletes attempts that are no longer current. Lives
 * on the state thread; remote calls go through {@link WorkerClusters} and answer back on it.
 */
final class Dispatcher implements ClusterEvents {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** status.dispatch.phase of an attempt no cluster has reported on yet. */
    private static final String DISPATCHED = "Dispatched";

    private final ManagerState state;
    private final Clock clock;
    private final DispatchOptions options;
    private final PlacementPolicy policy;
    private final long epoch;
    private final Map<WorkloadKey, DispatchAttempt> attempts = new HashMap<>();
    private final Set<WorkloadKey> dirty = new LinkedHashSet<>();
    private final Set<WorkloadKey> waiting = new LinkedHashSet<>();
    /** The last placement decision per workload, for explanations. */
    private final Map<WorkloadKey, PlacementDecision> lastPlacement = new HashMap<>();
    private final MultiKueueStatus clusterStatus;
    /** Attempt ids evicted or abandoned: never adopted again when a lost cluster comes back. */
    private final Set<String> retired = new HashSet<>();
    final ClusterFailover failover;
    /** Keeps the current attempts' leases alive; BerthManager's timers drive it. */
    final LeaseRenewals renewals;
    WorkerClusters clusters;
    /** Metrics; set by the manager. */
    DispatchListener listener = DispatchListener.NONE;

    Dispatcher(ManagerState state, Clock clock, DispatchOptions options, long epoch) {
        this.state = state;
        this.clock = clock;
        this.options = options;
        this.policy = new PlacementPolicy(clock, options.placement());
        this.epoch = epoch;
        this.clusterStatus = new MultiKueueStatus(state, clock);
        this.failover = new ClusterFailover(this, state, clock, options, clusterStatus);
        this.renewals = new LeaseRenewals(this, clock, epoch);
    }

    Clock clock() {
        return clock;
    }

    /** The current attempts, for failover; read on the state thread only. */
    Map<WorkloadKey, DispatchAttempt> attempts() {
        return attempts;
    }

    long epoch() {
        return epoch;
    }

    /**
     * Restart: current attempts come back from the workloads' status.dispatch, the fences holding
     * workloads back from their status.dispatchHolds, and every workload is looked at once the
     * clusters are connected, so one that a previous leader reserved quota for but never dispatched
     * is dispatched now.
     */
    void recover() {
        for (StoredObject stored : state.store.list(Resources.WORKLOADS.resource(), null)) {
            WorkloadKey key = WorkloadKey.of(stored.key().namespace(), stored.key().name());
            dirty.add(key);
            DispatchHolds.read(stored.object()).forEach(fence -> failover.fences.restore(key, fence));
            var dispatch = stored.object().path("status").path("dispatch");
            String id = dispatch.path("attemptId").asText("");
            if (id.isEmpty()) continue;
            DispatchAttempt attempt = new DispatchAttempt(id);
            attempt.clusters.add(dispatch.path("cluster").asText());
            if (!DISPATCHED.equals(dispatch.path("phase").asText(DISPATCHED))) attempt.confirmed.add(dispatch.path("cluster").asText());
            attempt.number = Math.max(1, DispatchHistory.count(stored.object()));
            attempt.lease = WorkloadLease.of(stored.object(), state, options.leaseDuration());
            attempt.lastRenewal.put(dispatch.path("cluster").asText(), clock.instant());
            attempt.knownSince = clock.instant();
            attempts.put(key, attempt);
        }
    }

    /** A fence on the workload's old attempt changed or was lifted: place it again. */
    void fenceChanged(WorkloadKey key) {
        dirty.add(key);
    }

    /** The controller wrote a workload's status. */
    void workloadChanged(WorkloadKey key) {
        dirty.add(key);
    }

    /** Acts on every workload whose status changed since the last call; runs the scheduler again if quota was freed. */
    void reconcile() {
        if (clusters == null) return;
        for (WorkloadKey key : new ArrayList<>(attempts.keySet())) {
            if (state.controller.statusOf(key) == null) dirty.add(key);
        }
        for (int round = 0; round < 10 && !dirty.isEmpty(); round++) {
            List<WorkloadKey> keys = new ArrayList<>(dirty);
            dirty.clear();
            keys.forEach(this::reconcile);
            state.scheduleSlice();
        }
    }

    private void reconcile(WorkloadKey key) {
        WorkloadStatus status = state.controller.statusOf(key);
        DispatchAttempt attempt = attempts.get(key);
        boolean running = status != null && status.isTrue(Conditions.QUOTA_RESERVED) && !status.isTrue(Conditions.FINISHED)
                && !status.isTrue(Conditions.EVICTED);
        if (!running) {
            waiting.remove(key);
            if (status == null) lastPlacement.remove(key);
            if (attempt != null) abandon(key, attempt, status == null ? "workload deleted" : "workload no longer holds quota");
            return;
        }
        AdmissionCheckState check = multiKueueCheck(status);
        if (check == null || attempt != null || !CheckStates.PENDING.equals(check.state())) return;
        place(key, status, check);
    }

    private void place(WorkloadKey key, WorkloadStatus status, AdmissionCheckState check) {
        String held = failover.fences.hold(key);
        if (held != null) {
            lastPlacement.remove(key);
            pending(key, check, held);
            return;
        }
        ObjectNode workload = state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name()).orElse(null);
        ObjectNode admissionCheck = state.find(Resources.ADMISSION_CHECKS.resource(), "", check.name()).orElseThrow();
        String configName = MultiKueueDecoder.configOf(admissionCheck);
        var config = configName == null ? null : state.find(Resources.MULTIKUEUE_CONFIGS.resource(), "", configName)
                .map(MultiKueueDecoder::decodeConfig).orElse(null);
        if (workload == null) return;
        if (!RemoteWorkloads.hasSomethingToRun(state, workload)) {
            pending(key, check, RemoteWorkloads.NOTHING_TO_RUN);
            return;
        }
        if (config == null) {
            pending(key, check, "MultiKueueConfig " + configName + " not found");
            return;
        }
        List<ClusterView> views = config.clusters().stream().map(clusters::view).map(this::withoutInFlight).toList();
        int priority = workload.path("spec").path("priority").asInt(0);
        PlacementDecision decision = policy.place(RemoteWorkloads.placementRequest(key, priority, status.admission()), views,
                options.placement().strategyFor(config.strategy()), null);
        lastPlacement.put(key, decision);
        if (!decision.placed()) {
            waiting.add(key);
            pending(key, check, decision.pendingMessage());
            return;
        }
        waiting.remove(key);
        DispatchAttempt attempt = new DispatchAttempt(UUID.randomUUID().toString());
        attempt.number = DispatchHistory.count(workload) + 1;
        attempt.lease = WorkloadLease.of(workload, state, options.leaseDuration());
        attempts.put(key, attempt);
        RemoteWorkload remote = RemoteWorkloads.attempt(state, workload, status.admission(), options.managerId(), attempt.id, epoch,
                clock.instant(), (int) attempt.lease.toSeconds());
        attempt.dispatchedAt = clock.instant();
        attempt.knownSince = attempt.dispatchedAt;
        attempt.request = RemoteWorkloads.placementRequest(key, priority, status.admission());
        if (options.placement().strategyFor(config.strategy()) == DispatchStrategy.INCREMENTAL) {
            attempt.firstDispatch = attempt.dispatchedAt;
            attempt.configClusters = config.clusters();
            attempt.remote = remote;
        }
        createCopies(key, attempt, remote, decision.clusters());
        listener.dispatched(status.admission().clusterQueue(), decision.clusters());
        String where = String.join(", ", decision.clusters());
        state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING,
                "dispatched to cluster " + where + " (attempt " + attempt.id + ", number " + attempt.number + ")");
        DispatchStatusWriter.writeDispatch(state, key, DispatchStatusWriter.dispatchBlock(decision.clusters().get(0), attempt.id, DISPATCHED, null), null);
        DispatchHistory.record(state, key, attempt.id, where, attempt.number, DISPATCHED, null, clock.instant());
    }

    /**
     * Incremental dispatch (MultiKueue parity): while no copy of an attempt has been admitted, one more
     * eligible cluster is added every interval. Called periodically.
     */
    void widenIncrementalAttempts() {
        if (clusters == null) return;
        attempts.forEach((key, attempt) -> {
            if (attempt.firstDispatch == null || attempt.winner != null) return;
            List<ClusterView> views = attempt.configClusters.stream().map(clusters::view).toList();
            PlacementDecision decision = policy.place(attempt.request, views, DispatchStrategy.INCREMENTAL, attempt.firstDispatch);
            List<String> added = decision.clusters().stream().filter(c -> !attempt.clusters.contains(c)).toList();
            if (!added.isEmpty()) createCopies(key, attempt, attempt.remote, added);
        });
    }

    private void createCopies(WorkloadKey key, DispatchAttempt attempt, RemoteWorkload remote, List<String> targets) {
        for (String cluster : targets) {
            attempt.clusters.add(cluster);
            attempt.lastRenewal.put(cluster, clock.instant());
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                    .addKeyValue("epoch", epoch).addKeyValue("attemptNumber", attempt.number).log("dispatching workload");
            clusters.calls(cluster).ifPresent(calls -> clusters.onStateThread(calls.create(remote), created -> {
                boolean current = attempts.get(key) == attempt;
                boolean answered = created.succeeded() || ClusterCalls.isAnswer(created.cause());
                if (created.succeeded()) attempt.confirmed.add(cluster);
                if (!current) {
                    // abandoned while the create was in flight: abandon() held the workload until the answer came
                    if (created.succeeded()) deleteRemote(key, cluster, attempt.id, "abandoned while its create was in flight");
                    if (answered && failover.fences.createAnswered(key, cluster, attempt.id)) {
                        dirty.add(key);
                        reconcile();
                    }
                    return;
                }
                if (created.succeeded()) return;
                log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                        .log("dispatch failed: " + created.cause().getMessage());
                attempt.clusters.remove(cluster);
                if (!answered) holdUntilLeaseRunsOut(key, attempt, cluster, "create unconfirmed (" + created.cause().getMessage() + ")");
                if (attempt.clusters.isEmpty()) {
                    attempts.remove(key);
                    retired.add(attempt.id);
                    DispatchStatusWriter.writeDispatch(state, key, null, null);
                    dirty.add(key);
                    reconcile();
                }
            }));
        }
    }

    /** A report made less than this long after a dispatch may not include it yet. */
    private static final java.time.Duration REPORT_LAG = java.time.Duration.ofSeconds(3);

    private ClusterView withoutInFlight(ClusterView view) {
        List<PlacementRequest> inFlight = new ArrayList<>();
        for (DispatchAttempt attempt : attempts.values()) {
            if (attempt.request == null || attempt.dispatchedAt == null || !attempt.clusters.contains(view.name())) continue;
            if (view.lastHeartbeat() == null || view.lastHeartbeat().isBefore(attempt.dispatchedAt.plus(REPORT_LAG))) {
                inFlight.add(attempt.request);
            }
        }
        return InFlightDispatches.withoutInFlight(view, inFlight);
    }

    /**
     * The attempt's copy on the cluster was dropped without the cluster ever acknowledging it: its create
     * may still arrive, with the lease it was stamped with. The workload is not dispatched again before
     * that lease (or a later renewal sent there) has surely run out; then the agent refuses to start it.
     */
    private void holdUntilLeaseRunsOut(WorkloadKey key, DispatchAttempt attempt, String cluster, String why) {
        Instant leaseGoneAt = attempt.leaseGoneAt(cluster, options.failover().leaseMargin(), clock.instant());
        if (failover.fences.raiseUnconfirmed(key, cluster, attempt.id, leaseGoneAt, why)) {
            failover.events.warning(cluster, Conditions.Reasons.DISPATCH_UNCONFIRMED, "workload " + key + ": " + failover.fences.hold(key));
        }
    }

    private void pending(WorkloadKey key, AdmissionCheckState check, String message) {
        if (!message.equals(check.message())) state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, message);
    }

    /** The remote copies of an attempt that is no longer current are deleted. */
    void abandon(WorkloadKey key, DispatchAttempt attempt, String why) {
        attempts.remove(key);
        retired.add(attempt.id);
        for (String cluster : attempt.clusters) {
            deleteRemote(key, cluster, attempt.id, why);
            if (!attempt.confirmed.contains(cluster)) holdUntilLeaseRunsOut(key, attempt, cluster, why + " before its create was confirmed");
        }
        if (state.controller.statusOf(key) != null) DispatchStatusWriter.writeDispatch(state, key, null, null);
    }

    private void deleteRemote(WorkloadKey key, String cluster, String attemptId, String why) {
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("deleting remote attempt: " + why);
        clusters.calls(cluster).ifPresent(calls -> calls.delete(key.namespace(), key.name())
                .onFailure(e -> log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                        .log("remote attempt not deleted yet (retried on the next listing): " + e.getMessage())));
    }

    private AdmissionCheckState multiKueueCheck(WorkloadStatus status) {
        for (AdmissionCheckState check : status.admissionChecks()) {
            boolean multiKueue = state.find(Resources.ADMISSION_CHECKS.resource(), "", check.name())
                    .map(ac -> KueueApi.MULTIKUEUE_CONTROLLER.equals(ac.path("spec").path("controllerName").asText())).orElse(false);
            if (multiKueue) return check;
        }
        return null;
    }

    // ---- read access for explanations ------------------------------------------------------

    /** The last placement decision for a workload, or null when it was never placed. */
    PlacementDecision lastPlacement(WorkloadKey key) {
        return lastPlacement.get(key);
    }

    /** The workload's MultiKueue admission check, or null when its ClusterQueue has none. */
    AdmissionCheckState dispatchCheck(WorkloadStatus status) {
        return status == null ? null : multiKueueCheck(status);
    }

    /** The current attempts that have a copy on a cluster: workload and attempt id. */
    Map<WorkloadKey, String> attemptsOn(String cluster) {
        Map<WorkloadKey, String> on = new java.util.TreeMap<>();
        attempts.forEach((key, attempt) -> {
            if (attempt.clusters.contains(cluster)) on.put(key, attempt.id);
        });
        return on;
    }

    // ---- cluster events ------------------------------------------------------------------

    @Override
    public void connectionChanged(String cluster, boolean connected, String message) {
        clusterStatus.clusterActive(cluster, connected, message);
        if (connected) capacityChanged(cluster);
    }

    @Override
    public void healthChanged(String cluster, dev.berth.manager.dispatch.HealthAssessment health, Instant lostSince) {
        failover.healthChanged(cluster, health, lostSince);
        if (!health.health().lost()) capacityChanged(cluster);
    }

    @Override
    public void capacityChanged(String cluster) {
        dirty.addAll(waiting);
        reconcile();
    }

    @Override
    public void attemptsListed(String cluster, List<RemoteWorkload> listed) {
        Set<WorkloadKey> seen = new HashSet<>();
        for (RemoteWorkload remote : listed) {
            seen.add(WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName()));
        }
        dispatchAgainWhereMissing(cluster, seen);
        for (RemoteWorkload remote : listed) {
            WorkloadKey key = WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName());
            String id = remote.getSpec().getAttemptId();
            DispatchAttempt attempt = attempts.get(key);
            if (attempt == null) attempt = adopt(key, cluster, remote);
            if (attempt == null || !attempt.id.equals(id) || !attempt.clusters.contains(cluster)
                    || (attempt.winner != null && !attempt.winner.equals(cluster))) {
                deleteRemote(key, cluster, id, "stale attempt");
                continue;
            }
            attempt.confirmed.add(cluster);
            if (remote.getSpec().getFencingEpoch() < epoch) renewals.stampEpochNow(key, cluster, attempt);
            RemoteWorkloadStatus status = remote.getStatus();
            if (status != null && status.getPhase() != null && (status.getAttemptId() == null || id.equals(status.getAttemptId()))) {
                mirror(key, cluster, attempt, status);
            }
        }
        reconcile();
    }

    /** Listings in a row that must miss an attempt before it counts as gone from a cluster. */
    private static final int MISSED_LISTINGS_TO_REDISPATCH = 2;

    /**
     * An attempt recorded as dispatched to a cluster whose listings do not show it, and never admitted there
     * (a leader that died between recording a dispatch and creating it, or the object deleted in the worker
     * cluster before it ran), is not running there: nothing there can run it without its RemoteWorkload. After
     * {@link #MISSED_LISTINGS_TO_REDISPATCH} listings in a row, each made well after the manager knew the
     * attempt, the cluster is dropped from the attempt, and a workload left with no copy is dispatched again
     * under a new attempt id, once the dropped copy's lease has run out: a create still in flight (a slow
     * network, a dead leader's last request) may yet arrive.
     */
    private void dispatchAgainWhereMissing(String cluster, Set<WorkloadKey> listed) {
        Instant now = clock.instant();
        for (Map.Entry<WorkloadKey, DispatchAttempt> current : new ArrayList<>(attempts.entrySet())) {
            WorkloadKey key = current.getKey();
            DispatchAttempt attempt = current.getValue();
            if (!attempt.clusters.contains(cluster) || attempt.draining) continue;
            if (listed.contains(key) || attempt.knownSince == null || now.isBefore(attempt.knownSince.plus(REPORT_LAG))) {
                attempt.missedListings.remove(cluster);
                continue;
            }
            int missed = attempt.missedListings.merge(cluster, 1, Integer::sum);
            if (missed < MISSED_LISTINGS_TO_REDISPATCH || !neverAdmittedRemotely(key)) continue;
            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                    .log("remote attempt missing from the cluster's listings: dispatching again once its lease has run out");
            attempt.clusters.remove(cluster);
            attempt.missedListings.remove(cluster);
            holdUntilLeaseRunsOut(key, attempt, cluster, "attempt missing from the cluster's listings");
            if (!attempt.clusters.isEmpty()) continue;
            attempts.remove(key);
            retired.add(attempt.id);
            DispatchStatusWriter.writeDispatch(state, key, null, null);
            dirty.add(key);
        }
    }

    /**
     * True while the workload's MultiKueue check is still Pending: no copy was ever admitted, so a missing
     * one never ran. A copy that ran and vanished is left alone (its end may just not have been mirrored).
     */
    private boolean neverAdmittedRemotely(WorkloadKey key) {
        WorkloadStatus status = state.controller.statusOf(key);
        AdmissionCheckState check = status == null ? null : multiKueueCheck(status);
        return check != null && CheckStates.PENDING.equals(check.state());
    }

    /** After a restart without a durable record: the attempt of a workload that still holds quota is kept. */
    private DispatchAttempt adopt(WorkloadKey key, String cluster, RemoteWorkload remote) {
        if (retired.contains(remote.getSpec().getAttemptId())) return null;
        WorkloadStatus status = state.controller.statusOf(key);
        if (status == null || !status.isTrue(Conditions.QUOTA_RESERVED) || status.isTrue(Conditions.FINISHED) || multiKueueCheck(status) == null) {
            return null;
        }
        DispatchAttempt attempt = new DispatchAttempt(remote.getSpec().getAttemptId());
        attempt.clusters.add(cluster);
        attempt.lease = Duration.ofSeconds(Math.max(0, remote.getSpec().getLeaseDurationSeconds()));
        attempt.lastRenewal.put(cluster, clock.instant());
        attempts.put(key, attempt);
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                .log("re-adopted remote attempt");
        return attempt;
    }

    private void mirror(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkloadStatus remote) {
        WorkloadStatus status = state.controller.statusOf(key);
        AdmissionCheckState check = status == null ? null : multiKueueCheck(status);
        if (check == null) return;
        String phase = remote.getPhase();
        ObjectNode block = DispatchStatusWriter.dispatchBlock(cluster, attempt.id, phase, remote);
        switch (phase) {
            case RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.RUNNING -> {
                if (attempt.winner == null) {
                    attempt.winner = cluster;
                    if (attempt.dispatchedAt != null) listener.firstReport(cluster, Duration.between(attempt.dispatchedAt, clock.instant()));
                    for (String other : attempt.clusters) {
                        if (other.equals(cluster)) continue;
                        deleteRemote(key, other, attempt.id, "another cluster admitted first");
                        // should the winner's copy fail, a loser's create still on its way must not run next to the next attempt
                        if (!attempt.confirmed.contains(other)) holdUntilLeaseRunsOut(key, attempt, other, "another cluster admitted first");
                    }
                    attempt.clusters.retainAll(Set.of(cluster));
                }
                DispatchStatusWriter.writeDispatch(state, key, block, cluster);
                if (!CheckStates.READY.equals(check.state())) {
                    log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                            .log("remote attempt admitted");
                    state.controller.setAdmissionCheckState(key, check.name(), CheckStates.READY,
                            "admitted in cluster " + cluster + " (attempt " + attempt.id + ")");
                }
            }
            case RemoteWorkloadPhase.SUCCEEDED, RemoteWorkloadPhase.FAILED -> {
                boolean succeeded = RemoteWorkloadPhase.SUCCEEDED.equals(phase);
                DispatchStatusWriter.writeDispatch(state, key, block, cluster);
                DispatchStatusWriter.mirrorObjectStatus(state, key, remote);
                log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                        .log("remote attempt finished: " + phase);
                attempts.remove(key);
                retired.add(attempt.id);
                DispatchHistory.record(state, key, attempt.id, cluster, attempt.number, phase, remote.getReason(), clock.instant());
                deleteRemote(key, cluster, attempt.id, "finished");
                state.controller.finish(key, succeeded, succeeded ? Conditions.Reasons.SUCCEEDED : Conditions.Reasons.FAILED,
                        Objects.requireNonNullElse(remote.getMessage(), "finished in cluster " + cluster));
            }
            case RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REJECTED -> {
                DispatchHistory.record(state, key, attempt.id, cluster, attempt.number, phase, remote.getReason(), clock.instant());
                if (RemoteWorkloadPhase.REASON_LEASE_EXPIRED.equals(remote.getReason()) && !attempt.draining) listener.leaseExpired(cluster);
                if (attempt.draining) {
                    failover.drained(key, attempt, cluster);
                    return;
                }
                log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id)
                        .log("remote attempt " + phase + ": " + remote.getReason());
                abandon(key, attempt, phase);
                state.controller.setAdmissionCheckState(key, check.name(), CheckStates.RETRY,
                        "attempt " + attempt.id + " in cluster " + cluster + " " + phase + ": " + remote.getReason());
            }
            default -> DispatchStatusWriter.writeDispatch(state, key, block, attempt.winner);
        }
        if ((remote.getObjectStatus() != null || remote.getPodStatuses() != null) && !RemoteWorkloadPhase.isFinal(phase)) {
            DispatchStatusWriter.mirrorObjectStatus(state, key, remote);
        }
    }


}
