package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.FitMode;
import dev.berth.manager.scheduling.FlavorAssigner;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.PreemptionOracle;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.manager.scheduling.PreemptionRequest;
import dev.berth.manager.scheduling.PreemptionTarget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One scheduling cycle, with Kueue's steps: 1. take the head of every active ClusterQueue;
 * 2. nominate: assign flavors and, where needed, plan preemptions; 3. order the nominations
 * (non-borrowing first, then priority, then queue time; by dominant resource share under fair
 * sharing); 4. admit or preempt, re-checking each against what earlier entries of this cycle took;
 * 5. requeue the rest.
 */
final class SchedulingCycle {
    /** What the cycle asks the controller to do; the controller applies it and undoes it on a failed write. */
    interface Effects {
        boolean admit(WorkloadEntry entry, FlavorAssignment assignment);

        void preempt(WorkloadEntry preemptor, List<PreemptionTarget> targets);

        void stillPending(WorkloadEntry entry, String message);

        /** True when the entry, though it fits, must not be admitted now (waitForPodsReady's blockAdmission): it is parked. */
        default boolean admissionHeldBack(WorkloadEntry entry) {
            return false;
        }
    }

    record Outcome(int nominated, int admitted, int preempted) {
        boolean madeProgress() {
            return admitted > 0 || preempted > 0;
        }
    }

    private final SchedulerState state;
    private final SchedulerOptions options;
    private final Effects effects;

    SchedulingCycle(SchedulerState state, SchedulerOptions options, Effects effects) {
        this.state = state;
        this.options = options;
        this.effects = effects;
    }

    Outcome run() {
        List<Map.Entry<String, Map<FlavorResource, Long>>> reservations = new ArrayList<>();
        try {
            return run(reservations);
        } finally {
            // Kueue's reservations for workloads stuck waiting on preemption last one cycle.
            for (Map.Entry<String, Map<FlavorResource, Long>> reserved : reservations) {
                state.quota.removeUsage(reserved.getKey(), reserved.getValue());
            }
        }
    }

    private void reserve(List<Map.Entry<String, Map<FlavorResource, Long>>> reservations, String queue, Map<FlavorResource, Long> usage) {
        if (usage.isEmpty() || !state.quota.hasClusterQueue(queue)) return;
        state.quota.addUsage(queue, usage);
        reservations.add(Map.entry(queue, usage));
    }

    private Outcome run(List<Map.Entry<String, Map<FlavorResource, Long>>> reservations) {
        List<Nomination> nominations = new ArrayList<>();
        List<WorkloadEntry> heads = new ArrayList<>();
        List<ClusterQueueSpec> headQueues = new ArrayList<>();
        List<Long> headGenerations = new ArrayList<>();
        Set<WorkloadEntry> heldFor = new HashSet<>();
        for (SchedulerState.PendingSlot slot : state.pendingSlots()) {
            if (slot.queue().isEmpty()) continue;
            ClusterQueueSpec spec = slot.spec();
            long generation = slot.generation().value;
            WorkloadEntry head = slot.queue().pollHead(spec.queueingStrategy(), generation, state.localQueueUsage.orderingFor(spec));
            if (head == null) {
                // A blocked StrictFIFO head stays the head: its reservation holds in every cycle.
                reserve(reservations, spec.name(), slot.queue().blockedHeadReservation(spec.queueingStrategy(), generation));
                continue;
            }
            heads.add(head);
            headQueues.add(spec);
            headGenerations.add(generation);
        }
        // Preemptors get back the quota held for them before anyone is nominated, and go first.
        for (WorkloadEntry head : heads) {
            if (state.releaseHold(head)) heldFor.add(head);
        }
        for (int i = 0; i < heads.size(); i++) {
            nominations.add(nominate(headQueues.get(i), heads.get(i), headGenerations.get(i)));
        }
        if (nominations.isEmpty()) return new Outcome(0, 0, 0);
        Comparator<Nomination> order = order();
        nominations.sort((a, b) -> {
            boolean aHeld = heldFor.contains(a.entry);
            if (aHeld != heldFor.contains(b.entry)) return aHeld ? -1 : 1;
            return order.compare(a, b);
        });

        int admitted = 0;
        int preempted = 0;
        Set<dev.berth.manager.model.WorkloadKey> victimsThisCycle = new HashSet<>();
        for (Nomination nomination : nominations) {
            WorkloadEntry entry = nomination.entry;
            PendingQueue queue = state.pending.get(nomination.queue.name());
            if (nomination.assignment.mode() == FitMode.FIT && effects.admissionHeldBack(entry)) {
                queue.park(entry, nomination.queue.queueingStrategy(), nomination.generation, false);
            } else if (nomination.assignment.mode() == FitMode.FIT) {
                if (state.quota.fits(nomination.queue.name(), nomination.assignment.usage(), true)
                        && effects.admit(entry, nomination.assignment)) {
                    admitted++;
                } else {
                    queue.putBack(entry);
                }
            } else if (!nomination.targets.isEmpty()) {
                // Kueue issues every preemption of a cycle whose targets no earlier preemption of the cycle
                // took, and whose preemptor still fits once its targets are gone.
                boolean overlaps = nomination.targets.stream().anyMatch(t -> victimsThisCycle.contains(t.victim().key()));
                if (!overlaps && fitsOnceVictimsGone(nomination)) {
                    int issued = newlyEvicted(nomination.targets);
                    if (issued > 0) {
                        queue.putBackAsPreemptor(entry);
                    } else {
                        // every target is evicted already and waits for its copy to stop: the preemptor waits for
                        // that quota to be freed (capacityFreed) instead of being offered again every cycle
                        queue.park(entry, nomination.queue.queueingStrategy(), nomination.generation, false);
                    }
                    nomination.targets.forEach(t -> victimsThisCycle.add(t.victim().key()));
                    effects.preempt(entry, nomination.targets);
                    preempted += issued;
                    // Kueue counts a preemptor's usage in the cycle's cohort usage, so the quota its victims
                    // free is not taken by a workload ordered after it. Berth evicts at once, so the quota stays
                    // held until the preemptor is nominated again, in the next cycle. Victims still stopping hold
                    // their quota themselves: nothing is held on top of it meanwhile.
                    if (issued > 0) state.hold(entry, nomination.queue.name(), nomination.assignment.usage());
                } else {
                    queue.putBack(entry);
                }
            } else if (nomination.namespaceMismatch) {
                effects.stillPending(entry, nomination.message);
                queue.parkAside(entry);
            } else {
                effects.stillPending(entry, nomination.message);
                queue.park(entry, nomination.queue.queueingStrategy(), nomination.generation, nomination.quotaOnly);
                if (nomination.stuckOnPreemption != null) {
                    Map<FlavorResource, Long> reserved = UnreclaimableReservation.of(nomination.queue, nomination.stuckOnPreemption,
                            state.quota, heldFor.contains(entry));
                    reserve(reservations, nomination.queue.name(), reserved);
                    queue.reserveForBlockedHead(reserved);
                }
            }
        }
        return new Outcome(nominations.size(), admitted, preempted);
    }

    /** How many of the targets a preemption would evict now: those not already evicted and waiting for their copy to stop. */
    private int newlyEvicted(List<PreemptionTarget> targets) {
        int count = 0;
        for (PreemptionTarget target : targets) {
            WorkloadEntry victim = state.workloads.get(target.victim().key());
            if (victim == null || !victim.awaitingStop()) count++;
        }
        return count;
    }

    /**
     * Kueue's check before it issues a preemption: the preemptor's usage fits once its own targets are
     * gone, on top of what earlier entries of this cycle admitted or hold. The targets' usage is taken
     * out of the quota tree for the check and put back.
     */
    private boolean fitsOnceVictimsGone(Nomination nomination) {
        List<PreemptionTarget> removed = new ArrayList<>(nomination.targets.size());
        for (PreemptionTarget target : nomination.targets) {
            if (!state.quota.hasClusterQueue(target.victim().clusterQueue())) continue;
            state.quota.removeUsage(target.victim().clusterQueue(), target.victim().usage());
            removed.add(target);
        }
        boolean fits = state.quota.fits(nomination.queue.name(), nomination.assignment.usage(), true);
        for (PreemptionTarget target : removed) state.quota.addUsage(target.victim().clusterQueue(), target.victim().usage());
        return fits;
    }

    /** Non-borrowing first (lowest share under fair sharing), then priority, queue time, requeue order, key. */
    private Comparator<Nomination> order() {
        if (options.fairSharing()) {
            return (a, b) -> {
                int byShare = Integer.compare(a.share, b.share);
                return byShare != 0 ? byShare : WorkloadEntry.compareInQueueOrder(a.entry, b.entry);
            };
        }
        return (a, b) -> {
            // Kueue orders by borrowing level: no borrowing first, then borrowing from a nearer ancestor cohort.
            int byLevel = Integer.compare(a.borrowingLevel, b.borrowingLevel);
            return byLevel != 0 ? byLevel : WorkloadEntry.compareInQueueOrder(a.entry, b.entry);
        };
    }

    private Nomination nominate(ClusterQueueSpec queue, WorkloadEntry entry, long generation) {
        if (queue.namespaceSelector() == null || !queue.namespaceSelector().matches(state.labelsOf(entry.key().namespace()))) {
            return Nomination.namespaceMismatch(queue, entry, generation);
        }
        PreemptionOracle oracle = new PlannedPreemptionOracle(new PreemptionPlanner(state.quota, options), state.quota, queue, entry,
                admittedInOwnQueue(queue), () -> admittedFor(queue));
        FlavorAssigner assigner = new FlavorAssigner(queue, Collections.unmodifiableMap(state.flavors), state.quota,
                options.fairSharing(), oracle).avoiding(entry.avoidedFlavors);
        FlavorAssignment full = assigner.assign(entry.request);
        if (full.mode() == FitMode.FIT) {
            return Nomination.of(queue, entry, generation, full, List.of(), share(queue, full)).atLevel(borrowingLevel(queue, full));
        }
        if (full.mode() == FitMode.PREEMPT) {
            List<PreemptionTarget> targets = planPreemption(queue, entry, full);
            if (!targets.isEmpty()) return Nomination.of(queue, entry, generation, full, targets, share(queue, full)).atLevel(full.borrows() ? 1 : 0);
        }
        FlavorAssignment partial = PartialAdmission.largestFitting(assigner, entry.request);
        if (partial != null) {
            return Nomination.of(queue, entry, generation, partial, List.of(), share(queue, partial)).atLevel(borrowingLevel(queue, partial));
        }
        String message = full.message();
        if (full.mode() == FitMode.PREEMPT) {
            message = message + ". Pending the preemption of workloads that the ClusterQueue's preemption policies do not allow";
            return Nomination.misfit(queue, entry, generation, message, true).stuckOn(full);
        }
        return Nomination.misfit(queue, entry, generation, message, true);
    }

    private int borrowingLevel(ClusterQueueSpec queue, FlavorAssignment assignment) {
        if (!assignment.borrows()) return 0;
        int level = 1;
        for (Map.Entry<FlavorResource, Long> used : assignment.usage().entrySet()) {
            level = Math.max(level, state.quota.borrowingLevel(queue.name(), used.getKey(), used.getValue()));
        }
        return level;
    }

    private int share(ClusterQueueSpec queue, FlavorAssignment assignment) {
        return options.fairSharing() ? state.quota.dominantResourceShare(queue.name(), assignment.usage()) : 0;
    }

    private List<PreemptionTarget> planPreemption(ClusterQueueSpec queue, WorkloadEntry entry, FlavorAssignment assignment) {
        Map<FlavorResource, Long> usage = assignment.usage();
        Set<FlavorResource> short_ = new HashSet<>();
        for (Map.Entry<FlavorResource, Long> wanted : usage.entrySet()) {
            if (wanted.getValue() > state.quota.available(queue.name(), wanted.getKey())) short_.add(wanted.getKey());
        }
        // An immutable copy: the planner iterates it once per candidate, and a one- or two-element
        // Set.copyOf iterates and answers contains() without hashing.
        PreemptionRequest request = new PreemptionRequest(queue, entry.request.priority(), entry.request.creationMillis(),
                usage, Set.copyOf(short_));
        return new PreemptionPlanner(state.quota, options).plan(request, admittedInOwnQueue(queue), () -> admittedFor(queue));
    }

    /** The workloads holding quota in the queue itself, in victim order: all a queue that can only preempt in itself looks at. */
    private Collection<AdmittedWorkload> admittedInOwnQueue(ClusterQueueSpec queue) {
        return new HolderView(state.holders.inQueue(queue.name()), null, state.pass);
    }

    /**
     * The candidates a queue's preemption plan sees: every workload holding quota in its cohort tree,
     * except those another queue admitted in this scheduling pass. A workload admitted in this pass is
     * not reclaimed by another queue in the same pass: otherwise queues that reclaim from each other can
     * evict and readmit in a loop (see docs/semantics.md).
     */
    private Collection<AdmittedWorkload> admittedFor(ClusterQueueSpec queue) {
        return new HolderView(state.holders.inTree(queue.name(), state.quota), queue.name(), state.pass);
    }

    private static final class Nomination {
        final ClusterQueueSpec queue;
        final WorkloadEntry entry;
        final long generation;
        final FlavorAssignment assignment;
        final List<PreemptionTarget> targets;
        final String message;
        final boolean quotaOnly;
        final boolean namespaceMismatch;
        final int share;
        /** The assignment of a workload that needs preemption but has no candidates (it reserves quota), else null. */
        FlavorAssignment stuckOnPreemption;
        /** Kueue's Assignment.Borrowing: 0 without borrowing, else the height of the cohort subtree it borrows from. */
        int borrowingLevel;

        Nomination stuckOn(FlavorAssignment assignment) {
            this.stuckOnPreemption = assignment;
            return this;
        }

        private Nomination(ClusterQueueSpec queue, WorkloadEntry entry, long generation, FlavorAssignment assignment,
                           List<PreemptionTarget> targets, String message, boolean quotaOnly, boolean namespaceMismatch, int share) {
            this.queue = queue;
            this.entry = entry;
            this.generation = generation;
            this.assignment = assignment;
            this.targets = targets;
            this.message = message;
            this.quotaOnly = quotaOnly;
            this.namespaceMismatch = namespaceMismatch;
            this.share = share;
        }

        Nomination atLevel(int level) {
            this.borrowingLevel = level;
            return this;
        }

        static Nomination of(ClusterQueueSpec queue, WorkloadEntry entry, long generation, FlavorAssignment assignment,
                             List<PreemptionTarget> targets, int share) {
            return new Nomination(queue, entry, generation, assignment, targets, null, false, false, share);
        }

        static Nomination misfit(ClusterQueueSpec queue, WorkloadEntry entry, long generation, String message, boolean quotaOnly) {
            return new Nomination(queue, entry, generation, new FlavorAssignment(FitMode.NO_FIT, false, List.of()),
                    List.of(), message, quotaOnly, false, Integer.MAX_VALUE);
        }

        /** Kueue's ErrNamespaceMismatch: inadmissible, and under StrictFIFO it does not keep the head. */
        static Nomination namespaceMismatch(ClusterQueueSpec queue, WorkloadEntry entry, long generation) {
            return new Nomination(queue, entry, generation, new FlavorAssignment(FitMode.NO_FIT, false, List.of()),
                    List.of(), "Workload namespace doesn't match ClusterQueue selector", false, true, Integer.MAX_VALUE);
        }
    }
}
