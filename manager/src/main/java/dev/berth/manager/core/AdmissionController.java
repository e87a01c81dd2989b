package dev.berth.manager.core;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.PreemptionTarget;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager's global queues. It owns the quota cache and the pending queues, runs scheduling
 * cycles (snapshot, decide, apply) and reports every status change to a {@link StatusSink}.
 * Not thread-safe: the caller confines it to one thread.
 */
public final class AdmissionController {
    private static final Logger log = LoggerFactory.getLogger(AdmissionController.class);

    /**
     * A pass that has not run out of heads after this many cycles ends anyway, so that a preemption
     * ping-pong cannot hold the thread forever; the next event starts a new one.
     */
    private static final int MAX_CYCLES_PER_PASS = 100_000;
    /** How many nominations a {@link #scheduleSlice()} makes before it lets other events in (about one cycle over 1,000 busy queues). */
    public static final int NOMINATIONS_PER_SLICE = 1_000;
    /** During a pass that spans slices, queue statuses are written this long after it began or was last written, and when it ends. */
    static final long QUEUE_STATUS_INTERVAL_IN_PASS_MILLIS = 1_000;
    /** A pass is open while its last slice stopped at the budget with heads left. */
    private boolean passOpen;
    private int cyclesInPass;
    private long lastQueueStatusMillis;

    private final Clock clock;
    private final SchedulerOptions options;
    private final StatusSink sink;
    private final ClusterState state = new ClusterState();
    private final QueueStatusReporter queueStatus;
    private final ArrayDeque<WorkloadEntry> finishedInOrder = new ArrayDeque<>();
    private boolean structureChanged = true;
    private long requeueSequence;
    private AdmissionListener listener = AdmissionListener.NONE;
    /** Evicted workloads waiting out status.requeueState.requeueAt before they are queued again. */
    private final Set<WorkloadEntry> backingOff = new LinkedHashSet<>();

    public AdmissionController(Clock clock, SchedulerOptions options, StatusSink sink) {
        this.clock = clock;
        this.options = options;
        this.sink = sink;
        this.queueStatus = new QueueStatusReporter(state, sink);
    }

    /** Who hears admissions, evictions and attempts (metrics); {@link AdmissionListener#NONE} by default. */
    public void setListener(AdmissionListener listener) {
        this.listener = listener == null ? AdmissionListener.NONE : listener;
    }

    // ---- queue objects ------------------------------------------------------------------

    public void applyResourceFlavor(ResourceFlavor flavor) {
        state.flavors.put(flavor.name(), flavor);
        structureChanged = true;
    }

    public void deleteResourceFlavor(String name) {
        state.flavors.remove(name);
        structureChanged = true;
    }

    public void applyClusterQueue(ClusterQueueSpec spec) {
        ClusterQueueSpec previous = state.clusterQueues.put(spec.name(), spec);
        queueStatus.forget(spec.name(), null); // rewrite the status: its observedGeneration follows the spec
        structureChanged = true;
        if (previous == null || previous.stopPolicy() != spec.stopPolicy()) applyStopPolicy(spec.name(), spec.stopPolicy(), true);
    }

    public void deleteClusterQueue(String name) {
        state.clusterQueues.remove(name);
        queueStatus.forget(name, null);
        structureChanged = true;
    }

    public void applyCohort(CohortSpec spec) {
        state.cohorts.put(spec.name(), spec);
        structureChanged = true;
    }

    public void deleteCohort(String name) {
        state.cohorts.remove(name);
        structureChanged = true;
    }

    public void applyLocalQueue(LocalQueueSpec spec) {
        LocalQueueSpec previous = state.localQueues.put(spec.key(), spec);
        queueStatus.forget(null, spec.key()); // rewrite the status: its observedGeneration follows the spec
        structureChanged = true;
        if (previous == null || previous.stopPolicy() != spec.stopPolicy()) applyLocalStopPolicy(spec);
    }

    public void deleteLocalQueue(String namespace, String name) {
        state.localQueues.remove(namespace + "/" + name);
        queueStatus.forget(null, namespace + "/" + name);
        structureChanged = true;
    }

    public void applyNamespace(String name, Map<String, String> labels) {
        state.namespaceLabels.put(name, Map.copyOf(labels));
        structureChanged = true;
    }

    public void deleteNamespace(String name) {
        state.namespaceLabels.remove(name);
        structureChanged = true;
    }

    public void applyAdmissionCheck(String name, boolean active) {
        state.admissionChecks.put(name, active);
        structureChanged = true;
    }

    public void deleteAdmissionCheck(String name) {
        state.admissionChecks.remove(name);
        structureChanged = true;
    }

    // ---- workloads ----------------------------------------------------------------------

    /** A new workload, or a restored one with the status it had (re-adopts its admission). */
    public void submit(WorkloadRequest request, boolean active, WorkloadStatus status) {
        WorkloadEntry existing = state.workloads.get(request.key());
        if (existing != null) {
            if (existing.holdsQuota() || existing.finished) {
                existing.request = existing.request.withMaximumExecutionTimeSeconds(request.maximumExecutionTimeSeconds());
                existing.active = active;
                return;
            }
            unqueue(existing);
            existing.request = request;
            existing.active = active;
            enqueue(existing);
            return;
        }
        WorkloadEntry entry = new WorkloadEntry(request, active, status == null ? WorkloadStatus.EMPTY : status);
        state.workloads.put(request.key(), entry);
        state.byLocalQueue.computeIfAbsent(entry.localQueueKey, k -> new LinkedHashSet<>()).add(entry);
        if (entry.status.isTrue(Conditions.FINISHED)) {
            entry.finished = true;
            markFinishedAt(entry);
            finishedInOrder.add(entry);
        } else if (entry.status.admission() != null && entry.status.isTrue(Conditions.QUOTA_RESERVED)) {
            readopt(entry);
        } else {
            enqueue(entry);
        }
        queueStatus.touched(entry);
    }

    private void markFinishedAt(WorkloadEntry entry) {
        Condition finished = entry.status.condition(Conditions.FINISHED);
        entry.finishedAtMillis = finished.lastTransitionTime() == null ? clock.millis() : finished.lastTransitionTime().toEpochMilli();
    }

    private void readopt(WorkloadEntry entry) {
        entry.admission = entry.status.admission();
        entry.usage = entry.admission.usage();
        entry.clusterQueue = entry.admission.clusterQueue();
        Condition reserved = entry.status.condition(Conditions.QUOTA_RESERVED);
        entry.reservedAtMillis = reserved.lastTransitionTime() == null ? clock.millis() : reserved.lastTransitionTime().toEpochMilli();
        state.reserved(entry, entry.clusterQueue);
        if (state.quota.hasClusterQueue(entry.clusterQueue)) state.quota.addUsage(entry.clusterQueue, entry.usage);
        structureChanged = true;
    }

    public void delete(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.remove(key);
        if (entry == null) return;
        Set<WorkloadEntry> inQueue = state.byLocalQueue.get(entry.localQueueKey);
        if (inQueue != null) inQueue.remove(entry);
        finishedInOrder.remove(entry);
        unqueue(entry);
        releaseQuota(entry);
        queueStatus.touched(entry);
    }

    public void finish(WorkloadKey key, boolean succeeded, String reason, String message) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished) return;
        unqueue(entry);
        String queue = entry.holdsQuota() ? entry.admission.clusterQueue() : entry.clusterQueue;
        releaseQuota(entry);
        entry.clusterQueue = queue;
        entry.finished = true;
        entry.finishedAtMillis = clock.millis();
        finishedInOrder.add(entry);
        write(entry, WorkloadConditions.finished(entry.status, succeeded, reason, message, now()));
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", key).addKeyValue("clusterQueue", queue)
                .addKeyValue("succeeded", succeeded).log("workload finished");
    }

    public void setAdmissionCheckState(WorkloadKey key, String check, String state, String message) {
        setAdmissionCheckState(key, check, state, message, null);
    }

    /**
     * A check's new state. Retry evicts the workload (quota released, checks back to Pending) and,
     * with requeueAfterSeconds, keeps it out of its queue until status.requeueState.requeueAt, as
     * Kueue does; Rejected deactivates it (spec.active=false) whether or not it holds quota.
     */
    public void setAdmissionCheckState(WorkloadKey key, String check, String state, String message, Integer requeueAfterSeconds) {
        WorkloadEntry entry = this.state.workloads.get(key);
        if (entry == null || entry.finished) return;
        entry.status = WorkloadConditions.checkState(entry.status, check, state, message, requeueAfterSeconds, now());
        if (CheckStates.REJECTED.equals(state)) {
            deactivateForRejectedCheck(entry);
            return;
        }
        if (!entry.holdsQuota()) {
            write(entry, entry.status);
            return;
        }
        switch (state) {
            case CheckStates.RETRY -> {
                String evictedMessage = "Evicted due to " + CheckStateMessages.describe(entry.status, CheckStates.RETRY);
                Instant requeueAt = requeueAfterSeconds == null || requeueAfterSeconds <= 0 ? null : now().plusSeconds(requeueAfterSeconds);
                entry.status = entry.status.withRequeueAt(requeueAt);
                evict(entry, Reasons.ADMISSION_CHECK, evictedMessage, null, true);
            }
            case CheckStates.READY -> {
                if (allChecksReady(entry)) {
                    entry.status = WorkloadConditions.admitted(entry.status, now());
                    long nowMillis = clock.millis();
                    listener.admitted(entry.admission.clusterQueue(), Math.max(0, nowMillis - entry.queueOrderMillis),
                            Math.max(0, nowMillis - entry.reservedAtMillis));
                    log.atInfo().addKeyValue("workload", key).addKeyValue("clusterQueue", entry.admission.clusterQueue())
                            .log("workload admitted: all admission checks ready");
                }
                write(entry, entry.status);
            }
            default -> write(entry, entry.status);
        }
        queueStatus.touched(entry);
    }

    /** Kueue's reconcileCheckBasedEviction for Rejected: spec.active=false, Evicted DeactivatedDueToAdmissionCheck. */
    private void deactivateForRejectedCheck(WorkloadEntry entry) {
        String reason = Reasons.DEACTIVATED + "DueTo" + Reasons.ADMISSION_CHECK;
        String message = "The workload is deactivated due to " + CheckStateMessages.describe(entry.status, CheckStates.REJECTED);
        entry.active = false;
        entry.status = entry.status.withRequeueAt(null); // Kueue clears the backoff of a deactivated workload
        if (entry.holdsQuota()) {
            evict(entry, reason, message, null, false);
        } else {
            unqueue(entry);
            write(entry, WorkloadConditions.evicted(entry.status, reason, message, null, false, now()));
        }
        queueStatus.touched(entry);
    }

    private boolean allChecksReady(WorkloadEntry entry) {
        for (AdmissionCheckState check : entry.status.admissionChecks()) {
            if (!CheckStates.READY.equals(check.state())) return false;
        }
        return true;
    }

    /**
     * Evicts a workload that holds quota, for a reason outside the scheduler (its worker cluster was
     * lost or drained): its quota is released and it is requeued. Nothing happens when it holds none.
     */
    public void evict(WorkloadKey key, String reason, String message) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished || !entry.holdsQuota()) return;
        evict(entry, reason, message, null, true);
    }

    public void setActive(WorkloadKey key, boolean active) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null || entry.finished || entry.active == active) return;
        if (!active) {
            entry.active = false;
            entry.status = entry.status.withRequeueAt(null); // Kueue clears the backoff of a deactivated workload
            if (entry.holdsQuota()) {
                evict(entry, Reasons.DEACTIVATED, "The workload is deactivated", null, false);
            } else {
                unqueue(entry);
                write(entry, WorkloadConditions.pending(entry.status, "The workload is deactivated", now()));
            }
        } else {
            entry.active = true;
            entry.queueOrderMillis = clock.millis();
            enqueue(entry);
            write(entry, entry.status);
        }
        queueStatus.touched(entry);
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
        deactivateOverdue();
        requeueAfterBackoff();
        if (structureChanged) rebuild();
        if (!passOpen) {
            state.pass++;
            cyclesInPass = 0;
            lastQueueStatusMillis = clock.millis();
        }
        SchedulingCycle cycle = new SchedulingCycle(state, options, new CycleEffects());
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
        expireFinished();
        long nowMillis = clock.millis();
        if (!passOpen || nowMillis - lastQueueStatusMillis >= QUEUE_STATUS_INTERVAL_IN_PASS_MILLIS) {
            lastQueueStatusMillis = nowMillis;
            queueStatus.flush(now());
        }
        int pending = 0;
        for (PendingQueue queue : state.pending.values()) pending += queue.size();
        return new CycleReport(cycles, nominated, admitted, preempted, pending + state.unplaced.size());
    }

    /** Deactivates every admitted workload whose maximum execution time ran out (see {@link ExecutionTimeLimit}). */
    private void deactivateOverdue() {
        Instant now = now();
        List<WorkloadEntry> overdue = new ArrayList<>();
        for (Set<WorkloadEntry> reserved : state.reservedByQueue.values()) {
            for (WorkloadEntry entry : reserved) {
                if (ExecutionTimeLimit.exceeded(entry.request, entry.status, now)) overdue.add(entry);
            }
        }
        for (WorkloadEntry entry : overdue) {
            entry.active = false;
            evict(entry, ExecutionTimeLimit.EVICTED_REASON, ExecutionTimeLimit.EVICTED_MESSAGE, null, false);
            write(entry, entry.status.withAccumulatedPastExecutionTimeSeconds(null));
        }
    }

    /** Queues again the workloads whose status.requeueState.requeueAt has passed (Kueue: Requeued=True, BackoffFinished). */
    private void requeueAfterBackoff() {
        if (backingOff.isEmpty()) return;
        Instant now = now();
        for (WorkloadEntry entry : List.copyOf(backingOff)) {
            if (entry.status.requeueAt() != null && entry.status.requeueAt().isAfter(now)) continue;
            backingOff.remove(entry);
            write(entry, WorkloadConditions.backoffFinished(entry.status, now));
            enqueue(entry);
            queueStatus.touched(entry);
        }
    }

    private void rebuild() {
        structureChanged = false;
        state.rebuildQuota();
        List<WorkloadEntry> waiting = new ArrayList<>();
        for (PendingQueue queue : state.pending.values()) waiting.addAll(queue.inOrder());
        waiting.addAll(state.unplaced);
        state.pending.clear();
        state.unplaced.clear();
        for (ClusterQueueSpec spec : state.clusterQueues.values()) {
            if (state.inactiveReason(spec) == null) state.pending.put(spec.name(), new PendingQueue());
        }
        state.pendingQueuesReplaced();
        for (WorkloadEntry entry : waiting) enqueue(entry);
        queueStatus.touchedAll();
    }

    private void expireFinished() {
        if (options.retainFinishedWorkloadsFor() == null) return;
        long cutoff = clock.millis() - options.retainFinishedWorkloadsFor().toMillis();
        while (!finishedInOrder.isEmpty() && finishedInOrder.peekFirst().finishedAtMillis <= cutoff) {
            WorkloadEntry entry = finishedInOrder.pollFirst();
            sink.workloadExpired(entry.key());
        }
    }

    // ---- effects --------------------------------------------------------------------------

    private final class CycleEffects implements SchedulingCycle.Effects {
        @Override
        public boolean admit(WorkloadEntry entry, FlavorAssignment assignment) {
            String queue = entry.clusterQueue;
            ClusterQueueSpec spec = state.clusterQueues.get(queue);
            var admission = assignment.toAdmission(queue);
            List<String> checks = new ArrayList<>();
            for (AdmissionCheckRule rule : spec.admissionChecks()) {
                if (rule.appliesTo(admission.flavors())) checks.add(rule.name());
            }
            WorkloadStatus before = entry.status;
            entry.admission = admission;
            entry.usage = admission.usage();
            entry.reservedAtMillis = clock.millis();
            state.quota.addUsage(queue, entry.usage);
            state.reserved(entry, queue);
            long waited = Math.max(0, (entry.reservedAtMillis - entry.queueOrderMillis) / 1000);
            WorkloadStatus next = WorkloadConditions.quotaReserved(before, admission, checks, waited, now());
            try {
                sink.workloadChanged(entry.key(), entry.active, next);
            } catch (RuntimeException writeFailed) {
                state.quota.removeUsage(queue, entry.usage);
                state.released(entry, queue);
                entry.admission = null;
                entry.usage = null;
                log.atWarn().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                        .setCause(writeFailed).log("admission not recorded; workload stays pending");
                return false;
            }
            entry.status = next;
            entry.reservedInPass = state.pass;
            long waitedMillis = Math.max(0, entry.reservedAtMillis - entry.queueOrderMillis);
            listener.quotaReserved(queue, waitedMillis);
            if (checks.isEmpty()) listener.admitted(queue, waitedMillis, -1);
            queueStatus.touched(entry);
            log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                    .addKeyValue("flavors", admission.flavors()).addKeyValue("checks", checks)
                    .log(checks.isEmpty() ? "workload admitted" : "quota reserved; waiting for admission checks");
            return true;
        }

        @Override
        public void preempt(WorkloadEntry preemptor, List<PreemptionTarget> targets) {
            for (PreemptionTarget target : targets) {
                WorkloadEntry victim = state.workloads.get(target.victim().key());
                if (victim == null || !victim.holdsQuota()) continue;
                String message = "Preempted to accommodate a workload (" + preemptor.key() + ") due to "
                        + describe(target.reason());
                evict(victim, Reasons.PREEMPTED, message, target.reason(), true);
                listener.preempted(preemptor.clusterQueue, target.reason());
            }
            stillPending(preemptor, "Pending the preemption of " + targets.size() + " workload(s)");
        }

        @Override
        public void stillPending(WorkloadEntry entry, String message) {
            Condition current = entry.status.condition(Conditions.QUOTA_RESERVED);
            if (current != null && !current.status() && message.equals(current.message())) return;
            write(entry, WorkloadConditions.pending(entry.status, message, now()));
        }
    }

    private static String describe(String reason) {
        return switch (reason) {
            case Reasons.IN_CLUSTER_QUEUE -> "prioritization in the ClusterQueue";
            case Reasons.IN_COHORT_RECLAMATION -> "reclamation within the cohort";
            case Reasons.IN_COHORT_FAIR_SHARING -> "fair sharing within the cohort";
            case Reasons.IN_COHORT_RECLAIM_WHILE_BORROWING -> "reclamation within the cohort while borrowing";
            default -> reason;
        };
    }

    /** Releases quota and records the eviction; a requeued workload goes back to its queue. */
    private void evict(WorkloadEntry entry, String reason, String message, String preemptionReason, boolean requeue) {
        String queue = entry.admission == null ? entry.clusterQueue : entry.admission.clusterQueue();
        releaseQuota(entry);
        entry.queueOrderMillis = clock.millis();
        entry.requeueSequence = ++requeueSequence;
        write(entry, WorkloadConditions.evicted(entry.status, reason, message, preemptionReason, requeue, now()));
        listener.evicted(queue, reason);
        if (requeue && entry.active) enqueue(entry);
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                .addKeyValue("reason", reason).log("workload evicted: " + message);
    }

    private void releaseQuota(WorkloadEntry entry) {
        if (!entry.holdsQuota()) return;
        String queue = entry.admission.clusterQueue();
        if (state.quota.hasClusterQueue(queue)) state.quota.removeUsage(queue, entry.usage);
        state.released(entry, queue);
        entry.admission = null;
        entry.usage = null;
        state.capacityFreed(queue);
        queueStatus.touched(entry);
        entry.clusterQueue = queue;
    }

    private void applyStopPolicy(String clusterQueue, StopPolicy policy, boolean isClusterQueue) {
        if (!policy.stopsAdmission()) return;
        for (WorkloadEntry entry : List.copyOf(state.reservedByQueue.getOrDefault(clusterQueue, Set.of()))) {
            boolean drain = policy == StopPolicy.HOLD_AND_DRAIN;
            if (drain || !entry.isAdmitted()) {
                evict(entry, Reasons.CLUSTER_QUEUE_STOPPED, "The ClusterQueue is stopped", null, true);
            }
        }
    }

    private void applyLocalStopPolicy(LocalQueueSpec spec) {
        if (!spec.stopPolicy().stopsAdmission()) return;
        for (WorkloadEntry entry : List.copyOf(state.byLocalQueue.getOrDefault(spec.key(), Set.of()))) {
            if (!entry.holdsQuota()) continue;
            if (spec.stopPolicy() == StopPolicy.HOLD_AND_DRAIN || !entry.isAdmitted()) {
                evict(entry, Reasons.LOCAL_QUEUE_STOPPED, "The LocalQueue is stopped", null, true);
            }
        }
    }

    // ---- queue placement ------------------------------------------------------------------

    private void enqueue(WorkloadEntry entry) {
        if (!entry.active || entry.finished || entry.holdsQuota()) return;
        if (entry.status.requeueAt() != null && entry.status.requeueAt().isAfter(now())) {
            backingOff.add(entry);
            return;
        }
        if (structureChanged) {
            state.unplaced.add(entry);
            return;
        }
        String unplaceable = null;
        LocalQueueSpec localQueue = state.localQueues.get(entry.localQueueKey);
        ClusterQueueSpec queue = localQueue == null ? null : state.clusterQueues.get(localQueue.clusterQueue());
        if (localQueue == null) {
            unplaceable = "LocalQueue " + entry.request.queueName() + " doesn't exist";
            entry.clusterQueue = null;
        } else if (queue == null) {
            unplaceable = "ClusterQueue " + localQueue.clusterQueue() + " doesn't exist";
            entry.clusterQueue = null;
        } else {
            entry.clusterQueue = queue.name();
            if (localQueue.stopPolicy().stopsAdmission()) {
                unplaceable = "LocalQueue " + localQueue.name() + " is stopped";
            } else if (!state.pending.containsKey(queue.name())) {
                unplaceable = "ClusterQueue " + queue.name() + " is inactive";
            }
        }
        if (unplaceable != null) {
            state.unplaced.add(entry);
            Condition current = entry.status.condition(Conditions.QUOTA_RESERVED);
            if (current == null || current.status() || !unplaceable.equals(current.message())) {
                write(entry, WorkloadConditions.pending(entry.status, unplaceable, now()));
            }
        } else {
            state.pending.get(queue.name()).add(entry);
        }
    }

    private void unqueue(WorkloadEntry entry) {
        backingOff.remove(entry);
        if (state.releaseHold(entry)) state.capacityFreed(entry.clusterQueue);
        if (entry.clusterQueue != null) {
            PendingQueue queue = state.pending.get(entry.clusterQueue);
            if (queue != null) queue.remove(entry);
        }
        state.unplaced.remove(entry);
    }

    private void write(WorkloadEntry entry, WorkloadStatus status) {
        entry.status = status;
        try {
            sink.workloadChanged(entry.key(), entry.active, status);
        } catch (RuntimeException writeFailed) {
            log.atWarn().addKeyValue("workload", entry.key()).setCause(writeFailed).log("status write failed");
        }
    }

    private Instant now() {
        return clock.instant();
    }

    // ---- read access for explanations and tests ---------------------------------------------

    /** The current status of a workload, or null. */
    public WorkloadStatus statusOf(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.get(key);
        return entry == null ? null : entry.status;
    }

    /** Pending workloads of a ClusterQueue in queue order. */
    public List<WorkloadKey> pendingIn(String clusterQueue) {
        PendingQueue queue = state.pending.get(clusterQueue);
        List<WorkloadKey> keys = new ArrayList<>();
        if (queue != null) for (WorkloadEntry entry : queue.inOrder()) keys.add(entry.key());
        for (WorkloadEntry entry : state.unplaced) if (clusterQueue.equals(entry.clusterQueue)) keys.add(entry.key());
        return keys;
    }

    /** Quota in use per flavor/resource for a ClusterQueue (reservations included). */
    public Map<String, Long> usageOf(String clusterQueue) {
        Map<String, Long> usage = new HashMap<>();
        if (!state.quota.hasClusterQueue(clusterQueue)) return usage;
        for (var fr : state.quota.flavorResources(clusterQueue)) usage.put(fr.toString(), state.quota.usage(clusterQueue, fr));
        return usage;
    }

    public QueueStatus clusterQueueStatus(String name) {
        ClusterQueueSpec spec = state.clusterQueues.get(name);
        return spec == null ? null : queueStatus.clusterQueueStatus(spec, now());
    }

    /** Kueue's per-ClusterQueue gauges as they stand now (for a metrics scrape). */
    public QueueMetrics queueMetrics() {
        return QueueMetricsReader.read(state);
    }

    public int workloadCount() {
        return state.workloads.size();
    }

    // ---- read-only diagnosis (explain, borrowing ledger, visibility) ---------------------------

    /** What the scheduler would decide for the workload now, and why; empty for an unknown workload. Changes nothing. */
    public java.util.Optional<AdmissionDiagnosis> diagnose(WorkloadKey key) {
        return new AdmissionDiagnostician(state, options).diagnose(key);
    }

    /** The pending workloads of a ClusterQueue in the scheduler's order; empty when the queue is unknown or inactive. */
    public java.util.Optional<List<PendingWorkloadView>> pendingWorkloads(String clusterQueue) {
        if (!state.clusterQueues.containsKey(clusterQueue)) return java.util.Optional.empty();
        PendingQueue queue = state.pending.get(clusterQueue);
        List<PendingWorkloadView> views = new ArrayList<>();
        if (queue != null) {
            for (WorkloadEntry entry : queue.inOrder()) {
                Condition reserved = entry.status.condition(Conditions.QUOTA_RESERVED);
                views.add(new PendingWorkloadView(entry.key(), entry.request.queueName(), entry.request.priority(),
                        entry.request.creationMillis(), reserved == null || reserved.status() ? null : reserved.message()));
            }
        }
        return java.util.Optional.of(views);
    }

    /** The ClusterQueue a LocalQueue points to; empty when the LocalQueue does not exist. */
    public java.util.Optional<String> clusterQueueOf(String namespace, String localQueue) {
        LocalQueueSpec spec = state.localQueues.get(namespace + "/" + localQueue);
        return spec == null ? java.util.Optional.empty() : java.util.Optional.of(spec.clusterQueue());
    }

    /** The cohort tree with every ClusterQueue's quotas, usage and pending count. */
    public QuotaSnapshot quotaSnapshot() {
        Map<String, QuotaSnapshot.CohortNode> cohorts = new java.util.TreeMap<>();
        for (CohortSpec cohort : state.cohorts.values()) {
            cohorts.put(cohort.name(), new QuotaSnapshot.CohortNode(cohort.name(), cohort.parent(), quotasOf(cohort.resourceGroups())));
        }
        List<QuotaSnapshot.QueueQuota> queues = new ArrayList<>();
        for (ClusterQueueSpec spec : state.clusterQueues.values()) {
            if (spec.cohort() != null) cohorts.putIfAbsent(spec.cohort(), new QuotaSnapshot.CohortNode(spec.cohort(), null, Map.of()));
            Map<dev.berth.manager.model.FlavorResource, Long> usage = new HashMap<>();
            if (state.quota.hasClusterQueue(spec.name())) {
                for (var fr : state.quota.flavorResources(spec.name())) usage.put(fr, state.quota.usage(spec.name(), fr));
            }
            PendingQueue pending = state.pending.get(spec.name());
            queues.add(new QuotaSnapshot.QueueQuota(spec.name(), spec.cohort(), quotasOf(spec.resourceGroups()), usage,
                    pending == null ? 0 : pending.size()));
        }
        for (QuotaSnapshot.CohortNode cohort : List.copyOf(cohorts.values())) {
            if (cohort.parent() != null) cohorts.putIfAbsent(cohort.parent(), new QuotaSnapshot.CohortNode(cohort.parent(), null, Map.of()));
        }
        return new QuotaSnapshot(List.copyOf(cohorts.values()), queues);
    }

    private static Map<dev.berth.manager.model.FlavorResource, dev.berth.manager.model.ResourceQuota> quotasOf(
            List<dev.berth.manager.model.ResourceGroup> groups) {
        Map<dev.berth.manager.model.FlavorResource, dev.berth.manager.model.ResourceQuota> quotas = new java.util.LinkedHashMap<>();
        for (var group : groups) {
            for (var flavor : group.flavors()) {
                for (var quota : flavor.resources()) quotas.put(new dev.berth.manager.model.FlavorResource(flavor.flavor(), quota.resource()), quota);
            }
        }
        return quotas;
    }
}
