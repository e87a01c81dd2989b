package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The manager's global queues, the one entry point of the admission side. It is split along Kueue's
 * seams: the {@link SchedulerState} quota cache, the {@link QueueManager}, the {@link WorkloadLifecycle}
 * and {@link AdmissionCheckTransitions} (Kueue's workload controller), the scheduling passes below
 * with their {@link AdmissionEffects}, and the {@link AdmissionReadModel} for explain and visibility.
 * Every status change goes to a {@link StatusSink}. Not thread-safe: the caller confines it to one thread.
 */
public final class AdmissionController {
    /**
     * A pass that has not run out of heads after this many cycles ends anyway, so that a preemption
     * ping-pong cannot hold the thread forever; the next event starts a new one.
     */
    private static final int MAX_CYCLES_PER_PASS = 100_000;
    /** How many nominations a {@link #scheduleSlice()} makes before it lets other events in (about one cycle over 1,000 busy queues). */
    public static final int NOMINATIONS_PER_SLICE = 1_000;
    /** During a pass that spans slices, queue statuses are written this long after it began or was last written, and when it ends. */
    static final long QUEUE_STATUS_INTERVAL_IN_PASS_MILLIS = 1_000;

    private final Clock clock;
    private final SchedulerOptions options;
    private final SchedulerState state;
    private final QueueStatusReporter queueStatus;
    private final SwitchableAdmissionListener listener = new SwitchableAdmissionListener();
    private final QueueManager queues;
    private final WorkloadLifecycle lifecycle;
    private final AdmissionCheckTransitions checks;
    private final AdmissionEffects effects;
    private final WaitForPodsReady podsReady;
    private final AdmissionReadModel reads;
    private final QuotaRelease quotaRelease;
    /** A pass is open while its last slice stopped at the budget with heads left. */
    private boolean passOpen;
    private int cyclesInPass;
    private long lastQueueStatusMillis;

    public AdmissionController(Clock clock, SchedulerOptions options, StatusSink sink) {
        this(clock, options, sink, RunningCopies.NONE);
    }

    /**
     * With who knows whether a workload's copy runs on a worker cluster (dispatch): evicting such a workload keeps
     * its quota until {@link #copyStopped}.
     */
    public AdmissionController(Clock clock, SchedulerOptions options, StatusSink sink, RunningCopies runningCopies) {
        this.clock = clock;
        this.options = options;
        this.state = new SchedulerState(options.admissionFairSharing());
        this.queueStatus = new QueueStatusReporter(state, sink, options.fairSharing());
        WorkloadStatusWriter writer = new WorkloadStatusWriter(sink, clock);
        this.queues = new QueueManager(state, writer, queueStatus);
        this.quotaRelease = new QuotaRelease(state, queues, writer, queueStatus, listener, runningCopies);
        this.lifecycle = new WorkloadLifecycle(state, queues, quotaRelease, writer, queueStatus, sink, options.retainFinishedWorkloadsFor(),
                options.deactivatedRetention());
        this.checks = new AdmissionCheckTransitions(queues, quotaRelease, writer, queueStatus, listener);
        this.podsReady = new WaitForPodsReady(options.waitForPodsReady(), state, queues, quotaRelease, writer);
        this.effects = new AdmissionEffects(state, quotaRelease, writer, queueStatus, listener, podsReady);
        this.reads = new AdmissionReadModel(state, options, queueStatus, clock);
    }

    /**
     * The copy of an evicted workload (Evicted=True, QuotaReserved=True) is confirmed stopped on its
     * worker cluster, or was never there: its quota is released and it is requeued as its eviction said.
     */
    public void copyStopped(WorkloadKey key) {
        lifecycle.copyStopped(key);
    }

    /** Who hears admissions, evictions and attempts (metrics); {@link AdmissionListener#NONE} by default. */
    public void setListener(AdmissionListener listener) {
        this.listener.switchTo(listener);
    }

    // ---- queue objects ------------------------------------------------------------------

    public void applyResourceFlavor(ResourceFlavor flavor) {
        state.flavors.put(flavor.name(), flavor);
        queues.structureChanged();
    }

    public void deleteResourceFlavor(String name) {
        state.flavors.remove(name);
        queues.structureChanged();
    }

    /** A Topology exists (Kueue's TopologyNotFound clears for the queues whose flavors name it). */
    public void applyTopology(String name) {
        if (state.topologies.add(name)) queues.structureChanged();
    }

    public void deleteTopology(String name) {
        if (state.topologies.remove(name)) queues.structureChanged();
    }

    public void applyClusterQueue(ClusterQueueSpec spec) {
        ClusterQueueSpec previous = state.clusterQueues.put(spec.name(), spec);
        queueStatus.forget(spec.name(), null); // rewrite the status: its observedGeneration follows the spec
        queues.structureChanged();
        if (previous == null || previous.stopPolicy() != spec.stopPolicy()) lifecycle.clusterQueueStopped(spec.name(), spec.stopPolicy());
    }

    public void deleteClusterQueue(String name) {
        state.clusterQueues.remove(name);
        queueStatus.forget(name, null);
        queues.structureChanged();
    }

    public void applyCohort(CohortSpec spec) {
        state.cohorts.put(spec.name(), spec);
        queues.structureChanged();
    }

    public void deleteCohort(String name) {
        state.cohorts.remove(name);
        queues.structureChanged();
    }

    public void applyLocalQueue(LocalQueueSpec spec) {
        LocalQueueSpec previous = state.localQueues.put(spec.key(), spec);
        queueStatus.forget(null, spec.key()); // rewrite the status: its observedGeneration follows the spec
        queues.structureChanged();
        if (previous == null || previous.stopPolicy() != spec.stopPolicy()) lifecycle.localQueueStopped(spec);
    }

    public void deleteLocalQueue(String namespace, String name) {
        state.localQueues.remove(namespace + "/" + name);
        queueStatus.forget(null, namespace + "/" + name);
        queues.structureChanged();
    }

    public void applyNamespace(String name, Map<String, String> labels) {
        state.namespaceLabels.put(name, Map.copyOf(labels));
        queues.structureChanged();
    }

    public void deleteNamespace(String name) {
        state.namespaceLabels.remove(name);
        queues.structureChanged();
    }

    public void applyAdmissionCheck(String name, boolean active) {
        state.admissionChecks.put(name, active);
        queues.structureChanged();
    }

    public void deleteAdmissionCheck(String name) {
        state.admissionChecks.remove(name);
        queues.structureChanged();
    }

    // ---- workloads ----------------------------------------------------------------------

    /** A new workload, or a restored one with the status it had (re-adopts its admission). */
    public void submit(WorkloadRequest request, boolean active, WorkloadStatus status) {
        lifecycle.submit(request, active, status);
    }

    public void delete(WorkloadKey key) {
        lifecycle.delete(key);
    }

    public void finish(WorkloadKey key, boolean succeeded, String reason, String message) {
        lifecycle.finish(key, succeeded, reason, message);
    }

    public void setAdmissionCheckState(WorkloadKey key, String check, String state, String message) {
        setAdmissionCheckState(key, check, state, message, null);
    }

    /** A check's new state; see {@link AdmissionCheckTransitions} for what Retry, Ready and Rejected do. */
    public void setAdmissionCheckState(WorkloadKey key, String check, String state, String message, Integer requeueAfterSeconds) {
        WorkloadEntry entry = this.state.workloads.get(key);
        if (entry == null || entry.finished) return;
        checks.checkStateChanged(entry, check, state, message, requeueAfterSeconds);
    }

    /**
     * Evicts a workload that holds quota, for a reason outside the scheduler (its worker cluster was
     * lost or drained): its quota is released and it is requeued. Nothing happens when it holds none.
     */
    public void evict(WorkloadKey key, String reason, String message) {
        lifecycle.evict(key, reason, message);
    }

    /**
     * The worker reported whether every admitted pod of the workload is ready (or succeeded): with
     * waitForPodsReady its PodsReady condition follows (see {@link WaitForPodsReady}); without, nothing happens.
     */
    public void setPodsReady(WorkloadKey key, boolean allPodsReady) {
        podsReady.podsReported(key, allPodsReady);
    }

    /**
     * The flavors this workload's flavor assignment skips from now on (empty: none): dispatch found no
     * connected worker cluster offers them. A waiting workload is queued again with the new set.
     */
    public void avoidFlavors(WorkloadKey key, java.util.Set<String> flavors) {
        WorkloadEntry entry = this.state.workloads.get(key);
        if (entry == null || entry.finished || entry.avoidedFlavors.equals(flavors)) return;
        boolean waiting = !entry.holdsQuota();
        if (waiting) queues.unqueue(entry);
        entry.avoidedFlavors = java.util.Set.copyOf(flavors);
        entry.pendingShapeOf = null; // its shape (a misfit's match) depends on what it avoids
        if (waiting) {
            queues.enqueue(entry);
            this.state.capacityFreed(entry.clusterQueue);
        }
    }

    public void setActive(WorkloadKey key, boolean active) {
        lifecycle.setActive(key, active);
    }

    // ---- scheduling ---------------------------------------------------------------------

    /**
     * Runs a whole scheduling pass: cycles until no head is left to nominate; then handles retention
     * and queue status.
     */
    public CycleReport schedule() {
        return schedule(Integer.MAX_VALUE);
    }

    /**
     * Runs one slice of a scheduling pass: cycles until the heads are exhausted or, at the end of a
     * cycle, {@link #NOMINATIONS_PER_SLICE} nominations have been made. While {@link #hasMoreToSchedule()},
     * the caller runs another slice once it has taken in the events that arrived meanwhile (finishes,
     * submissions), as Kueue's scheduler sees its cache's updates between cycles. A small installation
     * finishes its pass in one slice; a thousand busy queues take about one cycle per slice, so a pass
     * that preempts and readmits for seconds does not hold back the finishes that would have made room.
     */
    public CycleReport scheduleSlice() {
        return schedule(NOMINATIONS_PER_SLICE);
    }

    /** True when the last slice stopped at its budget with heads left to nominate: the pass goes on. */
    public boolean hasMoreToSchedule() {
        return passOpen;
    }

    CycleReport schedule(int nominationBudget) {
        lifecycle.deactivateOverdue();
        podsReady.evictTimedOut();
        podsReady.wakeHeldBack();
        queueStatus.touchedLocalQueues(state.localQueueUsage.sample(clock.instant()));
        queues.requeueAfterBackoff();
        queues.rebuildIfChanged();
        if (!passOpen) {
            state.pass++;
            cyclesInPass = 0;
            lastQueueStatusMillis = clock.millis();
        }
        SchedulingCycle cycle = new SchedulingCycle(state, options, effects);
        int cycles = 0;
        int admitted = 0;
        int preempted = 0;
        int nominated = 0;
        boolean exhausted = false;
        while (cyclesInPass < MAX_CYCLES_PER_PASS) {
            long attemptToken = listener.attemptStarting();
            SchedulingCycle.Outcome outcome = cycle.run();
            if (outcome.nominated() == 0) {
                exhausted = true;
                break;
            }
            listener.attempt(outcome.admitted() > 0, attemptToken);
            cycles++;
            cyclesInPass++;
            nominated += outcome.nominated();
            admitted += outcome.admitted();
            preempted += outcome.preempted();
            if (nominated >= nominationBudget) break;
        }
        passOpen = !exhausted && cyclesInPass < MAX_CYCLES_PER_PASS;
        lifecycle.expireFinished();
        long nowMillis = clock.millis();
        if (!passOpen || nowMillis - lastQueueStatusMillis >= QUEUE_STATUS_INTERVAL_IN_PASS_MILLIS) {
            lastQueueStatusMillis = nowMillis;
            queueStatus.flush(clock.instant());
        }
        return new CycleReport(cycles, nominated, admitted, preempted, queues.waitingCount());
    }

    // ---- read access for explanations, visibility, metrics and tests -----------------------

    /** The current status of a workload, or null. */
    public WorkloadStatus statusOf(WorkloadKey key) {
        return reads.statusOf(key);
    }

    /** Pending workloads of a ClusterQueue in queue order. */
    public List<WorkloadKey> pendingIn(String clusterQueue) {
        return reads.pendingIn(clusterQueue);
    }

    /** Quota in use per flavor/resource for a ClusterQueue (reservations included). */
    public Map<String, Long> usageOf(String clusterQueue) {
        return reads.usageOf(clusterQueue);
    }

    public QueueStatus clusterQueueStatus(String name) {
        return reads.clusterQueueStatus(name);
    }

    /** Kueue's per-ClusterQueue gauges as they stand now (for a metrics scrape). */
    public QueueMetrics queueMetrics() {
        return reads.queueMetrics();
    }

    public int workloadCount() {
        return reads.workloadCount();
    }

    /** What the scheduler would decide for the workload now, and why; empty for an unknown workload. Changes nothing. */
    public Optional<AdmissionDiagnosis> diagnose(WorkloadKey key) {
        return reads.diagnose(key);
    }

    /** The pending workloads of a ClusterQueue in the scheduler's order; empty when the queue is unknown or inactive. */
    /** What would admit a pending workload now (explain's suggestions and estimate); priorityClasses: WorkloadPriorityClass values by name. */
    public AdmissionAdvice advise(WorkloadKey key, Map<String, Integer> priorityClasses) {
        return reads.advise(key, priorityClasses);
    }

    /** Only who waits ahead of the workload for the same resources, without re-runs: the dashboard's answers, as explain's first line. */
    public AdmissionAdvice aheadOnly(WorkloadKey key) {
        return reads.aheadOnly(key);
    }

    public Optional<List<PendingWorkloadView>> pendingWorkloads(String clusterQueue) {
        return reads.pendingWorkloads(clusterQueue);
    }

    /** The ClusterQueue a LocalQueue points to; empty when the LocalQueue does not exist. */
    public Optional<String> clusterQueueOf(String namespace, String localQueue) {
        return reads.clusterQueueOf(namespace, localQueue);
    }

    /** The cohort tree with every ClusterQueue's quotas, usage and pending count. */
    public QuotaSnapshot quotaSnapshot() {
        return reads.quotaSnapshot();
    }
}
