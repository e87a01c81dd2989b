package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.CurrentAttempts;
import dev.berth.manager.dispatch.WorkloadReconcile;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.protocol.crd.ProvisioningAsk;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchListener;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.WaitingReplacement;
import dev.berth.manager.dispatch.WorkQueue;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MultiKueue's admission check, done by Berth: places workloads that hold quota on worker clusters,
 * mirrors the remote attempt's status back, and deletes attempts that are no longer current. Lives
 * on the state thread; remote calls go through {@link WorkerClusters} and answer back on it.
 */
final class DispatchController implements ClusterEvents, DispatchPort {
    private static final Logger log = LoggerFactory.getLogger(DispatchController.class);

    /** A report made less than this long after a dispatch may not include it yet. */
    static final Duration REPORT_LAG = Duration.ofSeconds(3);

    private final ManagerState state;
    private final Clock clock;
    private final DispatchOptions options;
    private final PlacementPolicy policy;
    private final WaitingReplacement replacement;
    private final long epoch;
    /** Each workload's current attempt, and the retired attempt ids (never adopted again when a lost cluster comes back). */
    private final CurrentAttempts attempts = new CurrentAttempts();
    /** Workloads to reconcile: named by an event, due for a retry after a failure, or all of them at a resync. */
    private final WorkQueue<WorkloadKey> queue;
    private final Set<WorkloadKey> waiting = new LinkedHashSet<>();
    private final RoundViews roundViews = new RoundViews();
    /** The last placement decision per workload, for explanations. */
    private final Map<WorkloadKey, PlacementDecision> lastPlacement = new HashMap<>();
    private final MultiKueueStatus clusterStatus;
    final ClusterFailover failover;
    /** Deletes copies that must not run, holding the workload for those whose create was never confirmed. */
    final CopyWithdrawals copies;
    /** Keeps the current attempts' leases alive; BerthManager's timers drive it. */
    final LeaseRenewals renewals;
    /** Reads the clusters' listings of attempts, and mirrors what they report. */
    private final AttemptListings listings;
    /** Withdraws attempts no worker started within the start timeout (issue 20 rule 1); BerthManager's poll drives it. */
    final StartTimeoutWithdrawals withdrawals;
    /** Sends an attempt's creates, and acts on their answers. */
    private final RemoteCreates creates;
    private final AttemptWidening widening;
    /** Reads attempts, holds and quota holders back from the stored Workloads. */
    private final StoredAttempts stored;
    /** AdmissionChecks and MultiKueueConfigs, decoded once per stored version. */
    private final AdmissionCheckReads checks;
    /** Evicted workloads whose copy is being stopped keep their quota until it is (issue 20, rule 4). */
    private final EvictedCopyStops stops;
    /** Commits one reserved copy of a multi-cluster attempt and withdraws the others (two-phase dispatch). */
    final CopyCommits commits;
    /** Releases quota held in a flavor no connected cluster offers (issue 20, rule 2). */
    private final UnservedFlavorRetries unserved;
    /** Provisioning admission checks followed through the agents' ProvisioningRequests (issue 18). */
    final ProvisioningChecks provisioning;
    /** The worker clusters: built before the dispatcher, reporting to it through the root's {@link ClusterEventsLink}. */
    final WorkerClusters clusters;
    /** Dispatch started ({@link #start}, the manager's start): until then a reconcile does nothing. */
    private boolean started;
    /** Metrics. */
    final DispatchListener listener;

    DispatchController(ManagerState state, WorkerClusters clusters, Clock clock, DispatchOptions options, long epoch, DispatchListener listener,
               ClusterActionEvents actions) {
        this.state = state;
        this.clusters = clusters;
        this.listener = listener;
        this.clock = clock;
        this.options = options;
        this.policy = new PlacementPolicy(clock, options.placement());
        this.replacement = new WaitingReplacement(options.placement().heartbeatStaleAfter(), WaitingReplacement.UNCHANGED_INTERVAL);
        this.epoch = epoch;
        this.clusterStatus = new MultiKueueStatus(state, clock);
        this.failover = new ClusterFailover(this, state, clock, options, clusterStatus, actions);
        this.copies = new CopyWithdrawals(this, clock, options.failover().leaseMargin(), epoch);
        this.renewals = new LeaseRenewals(this, clock, epoch);
        this.queue = new WorkQueue<>(clock, options.workQueue());
        this.listings = new AttemptListings(this, state, clock, epoch);
        this.creates = new RemoteCreates(this, state.store, clock, epoch);
        this.stored = new StoredAttempts(state, clock, options.leaseDuration());
        this.stops = new EvictedCopyStops(this, state, clock, options);
        this.commits = new CopyCommits(this, state, clock, epoch);
        this.widening = new AttemptWidening(this, state, policy, commits, creates);
        this.unserved = new UnservedFlavorRetries(state, clock, options.unservedFlavors());
        this.withdrawals = new StartTimeoutWithdrawals(this, state, clock, options);
        this.checks = new AdmissionCheckReads(state.store);
        this.provisioning = new ProvisioningChecks(state, clock, checks);
    }

    /** The current attempts; the state thread only. */
    CurrentAttempts attempts() {
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
    void recover(List<StoredObject> storedWorkloads) {
        queue.addAll(stored.recover(storedWorkloads, attempts, failover.fences));
    }

    /** A fence on the workload's old attempt changed or was lifted: place it again. */
    void fenceChanged(WorkloadKey key) {
        queue.add(key);
    }

    /** The manager started: the worker clusters are connected from now on, and reconciles act. */
    void start() {
        started = true;
    }

    /** An evicted workload keeps its quota while its attempt is current: its copy may run on a worker. */
    @Override
    public boolean hasRunningCopy(WorkloadKey key) {
        return attempts.has(key);
    }

    /** The controller wrote a workload's status. */
    @Override
    public void workloadChanged(WorkloadKey key) {
        queue.add(key);
        listings.workloadChanged(key);
    }

    /** Reconciles what changed, in rounds with a scheduling slice after each, as the pass runner sequences them. */
    void reconcile() {
        state.passes.dispatch(this);
    }

    /** Queues the workloads named by an event, due for a retry, or (each resync) holding quota; false without worker clusters. */
    @Override
    public boolean roundsStart() {
        if (!started) return false;
        for (WorkloadKey key : attempts.workloads()) {
            if (state.controller.statusOf(key) == null) queue.add(key);
        }
        if (queue.resyncDue()) queue.addAll(stored.holdingQuota(attempts.workloads()));
        queue.addAll(unserved.due());
        unserved.clustersChanged(clusters::view); // a config may have gained a cluster without a capacity event
        return true;
    }

    @Override
    public boolean round() {
        if (!queue.hasReady()) return false;
        roundViews.reset();
        queue.takeReady().forEach(this::reconcileOrRetry);
        return true;
    }

    /** One workload; should it fail (the store unavailable, say), it is tried again after a backoff, and the others go on. */
    private void reconcileOrRetry(WorkloadKey key) {
        roundViews.nextWorkload();
        try {
            reconcile(key);
            queue.forget(key);
        } catch (RuntimeException e) {
            int failures = queue.failed(key);
            DispatchAttempt attempt = attempts.get(key);
            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", attempt == null ? null : String.join(",", attempt.clusters()))
                    .addKeyValue("attempt", attempt == null ? null : attempt.id()).addKeyValue("failures", failures)
                    .addKeyValue("retryIn", queue.backoff(key)).setCause(e).log("dispatch of workload failed; retrying after a backoff");
        }
    }

    /** Runs {@link WorkloadReconcile}'s decision for the workload. */
    private void reconcile(WorkloadKey key) {
        WorkloadStatus status = state.controller.statusOf(key);
        AdmissionCheckState check = checks.multiKueueCheck(status);
        for (WorkloadReconcile.Command command : WorkloadReconcile.reconcile(EvictedCopyStops.standing(status), attempts.get(key), check == null ? null : check.state())) {
            if (command instanceof WorkloadReconcile.StopWaiting) {
                waiting.remove(key);
            } else if (command instanceof WorkloadReconcile.StopCopies stop) {
                stops.reconcile(key, stop.current());
            } else if (command instanceof WorkloadReconcile.ForgetWorkload) {
                lastPlacement.remove(key);
                stops.copies.forget(key);
                withdrawals.forget(key);
            } else if (command instanceof WorkloadReconcile.QuotaGone gone) {
                unserved.stopped(key, gone.deleted());
            } else if (command instanceof WorkloadReconcile.Abandon abandoned) {
                abandon(key, abandoned.attempt(), abandoned.why());
            } else if (command instanceof WorkloadReconcile.Place) {
                place(key, status, check);
            }
        }
    }

    private void place(WorkloadKey key, WorkloadStatus status, AdmissionCheckState check) {
        String fenceHold = failover.fences.hold(key);
        ObjectNode workload = null;
        String configName = null;
        MultiKueueDecoder.ConfigInfo config = null;
        String nothingToRun = null;
        if (fenceHold == null) { // a held workload is not looked up
            workload = state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name()).orElse(null);
            configName = checks.check(check.name()).orElseThrow().multiKueueConfig();
            config = configName == null ? null : checks.config(configName).orElse(null);
            if (workload != null && !RemoteWorkloads.hasSomethingToRun(state, workload)) nothingToRun = RemoteWorkloads.NOTHING_TO_RUN;
        }
        WorkloadReconcile.Blocked blocked = WorkloadReconcile.placementBlocked(fenceHold, workload != null, nothingToRun, configName, config != null);
        if (blocked != null) {
            if (blocked instanceof WorkloadReconcile.HeldByFence) lastPlacement.remove(key);
            if (blocked.message() != null) pending(key, check, blocked.message());
            return;
        }
        Set<String> avoided = withdrawals.avoided(key);
        List<ClusterView> views = config.clusters().stream().filter(c -> !avoided.contains(c)).map(c -> roundViews.view(c, this::inFlightView)).toList();
        int priority = workload.path("spec").path("priority").asInt(0);
        PlacementRequest request = RemoteWorkloads.placementRequest(key, priority, status.admission(), workload);
        PlacementDecision placed = policy.place(request, views, options.placement().strategyFor(config.strategy()), null, RemoteWorkloads.nominatedClusters(workload));
        ProvisioningAsk ask = provisioning.askFor(key, workload, status);
        PlacementDecision decision = placed.placed() || ask == null ? placed : provisioning.scaleUp(placed, request, views, clusters::scalable);
        lastPlacement.put(key, decision);
        if (!decision.placed()) {
            waiting.add(key);
            String message = unserved.notPlaced(key, check, request, configName, views, decision.pendingMessage());
            String note = withdrawals.note(key);
            if (message != null) pending(key, check, note == null ? message : note + "; " + message);
            roundViews.unchanged();
            return;
        }
        waiting.remove(key);
        unserved.forget(key);
        String id = UUID.randomUUID().toString();
        Duration lease = WorkloadLease.of(workload, state, options.leaseDuration());
        RemoteWorkload remote = RemoteWorkloads.attempt(state, workload, status.admission(), options.managerId(), id, epoch,
                clock.instant(), (int) lease.toSeconds(), decision.singleClusterDomains());
        DispatchAttempt attempt = DispatchAttempt.dispatched(id, DispatchHistory.count(workload) + 1, lease, request, clock.instant());
        remote.getSpec().setProvisioning(ask);
        if (attempt.follow(options.placement().strategyFor(config.strategy()), config.clusters())) remote.getSpec().setReservation(true);
        widening.dispatched(attempt, remote);
        String where = String.join(", ", decision.clusters());
        // write-ahead: recorded before any create is sent, so a new leader knows every attempt a worker may hold
        DispatchStatusWriter.update(state, key, parts -> parts.withDispatch(DispatchStatus.dispatched(decision.clusters().get(0), attempt.id()), null)
                .withOutcome(attempt.id(), where, attempt.number(), DispatchStatus.DISPATCHED, null, clock.instant()));
        attempts.begin(key, attempt);
        creates.send(key, attempt, remote, decision.clusters());
        roundViews.placed(request, attempt.clusters());
        listener.dispatched(status.admission().clusterQueue(), decision.clusters());
        String note = withdrawals.placed(key);
        state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, (note == null ? "" : note + "; placed on " + where + ": ")
                + "dispatched to cluster " + where + " (attempt " + attempt.id() + ", number " + attempt.number() + ")");
    }

    /** Incremental and External attempts gain clusters while none of their copies is committed ({@link AttemptWidening}). */
    void widenIncrementalAttempts() {
        widening.widen(clusters);
    }

    private ClusterView inFlightView(String cluster) {
        return RoundViews.withoutInFlight(clusters.view(cluster), attempts.all(), stops.copies.demandOn(cluster));
    }

    private void pending(WorkloadKey key, AdmissionCheckState check, String message) {
        if (!message.equals(check.message())) state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, message);
    }

    /** The remote copies of an attempt that is no longer current are deleted. */
    void abandon(WorkloadKey key, DispatchAttempt attempt, String why) {
        retire(key, attempt);
        for (String cluster : attempt.clusters()) copies.withdraw(key, attempt, cluster, why, why + " before its create was confirmed");
        if (state.controller.statusOf(key) != null) DispatchStatusWriter.writeDispatch(state, key, null, null);
    }

    void deleteRemote(WorkloadKey key, String cluster, String attemptId, String why) {
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("deleting remote attempt: " + why);
        clusters.calls(cluster).ifPresent(calls -> calls.delete(key.namespace(), key.name())
                .onFailure(e -> log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                        .log("remote attempt not deleted yet (retried on the next listing): " + e.getMessage())));
    }

    /** The attempt is no longer current: never adopted again, should a lost cluster come back with it. */
    void retire(WorkloadKey key, DispatchAttempt attempt) {
        attempts.retire(key, attempt);
        widening.retired(attempt);
    }

    boolean retired(String attemptId) {
        return attempts.retired(attemptId);
    }

    /** The attempt's last copy was dropped without running: it is retired, status.dispatch cleared, and the workload placed again. */
    void lastCopyGone(WorkloadKey key, DispatchAttempt attempt) {
        retire(key, attempt);
        DispatchStatusWriter.writeDispatch(state, key, null, null);
        queue.add(key);
    }

    /**
     * The attempt's last copy was refused by its cluster (a 4xx: nothing landed): as {@link #lastCopyGone}, but placed
     * again only after the work queue's backoff for the refusals in a row, not at once: a worker that refuses every
     * create (a terminating namespace, an older CRD) would otherwise be sent new attempts as fast as it answers.
     */
    void lastCopyRefused(WorkloadKey key, DispatchAttempt attempt, int refusalsInARow) {
        retire(key, attempt);
        DispatchStatusWriter.writeDispatch(state, key, null, null);
        queue.retryAfter(key, options.workQueue().backoff(refusalsInARow));
    }

    // ---- read access for explanations ------------------------------------------------------

    /** The last placement decision for a workload, or null when it was never placed. */
    PlacementDecision lastPlacement(WorkloadKey key) {
        return lastPlacement.get(key);
    }

    /** The workload's MultiKueue admission check, or null when its ClusterQueue has none. */
    AdmissionCheckState dispatchCheck(WorkloadStatus status) {
        return checks.multiKueueCheck(status);
    }

    // ---- cluster events ------------------------------------------------------------------

    @Override
    public void connectionChanged(String cluster, boolean connected, String message) {
        clusterStatus.clusterActive(cluster, connected, message);
        listings.connectionChanged(cluster);
        if (connected) capacityChanged(cluster);
    }

    @Override
    public void healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
        failover.healthChanged(cluster, health, lostSince);
        if (!health.health().lost()) capacityChanged(cluster);
    }

    @Override
    public void operatorMarksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
        failover.marksChanged(cluster, cordoned, draining, wasCordoned, wasDraining);
    }

    @Override
    public void capacityChanged(String cluster) {
        if (unserved.clustersChanged(clusters::view)) state.passes.scheduleSlice();
        if (replacement.due(inFlightView(cluster), clock.instant())) queue.addAll(waiting);
        reconcile();
    }

    @Override
    public void agentEpochBeforeListing(String cluster, long agentEpoch, Instant readAt, Instant listingStartedAt) {
        listings.agentEpochRead(cluster, agentEpoch, readAt, listingStartedAt);
    }

    /** Finished copies first: each one's quota is handed out in a slice at once, before the listing's other events and reports. */
    @Override
    public void finishedCopiesSeen(String cluster, List<RemoteWorkload> finished) {
        listings.finishedFirst(cluster, finished, state.passes::scheduleSlice);
    }

    @Override
    public void attemptsListed(String cluster, List<RemoteWorkload> listed) {
        listings.listed(cluster, listed);
        reconcile();
    }
}
