package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.FitMode;
import dev.berth.manager.scheduling.FlavorAssigner;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.manager.scheduling.PreemptionRequest;
import dev.berth.manager.scheduling.QuotaTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler's admission decision for one request over a MODIFIED copy of the current state:
 * some ClusterQueue specs replaced (a raised limit or quota) and some holders gone (their quota
 * freed). A fresh quota tree is built from the specs, as {@link SchedulerState#rebuildQuota} builds
 * it, the holders' usage is added back, and the scheduler's own {@link FlavorAssigner} and
 * {@link PreemptionPlanner} decide. The live state is never changed: explain's suggestions are
 * checked by this re-run, never guessed.
 */
final class WhatIfAdmission {
    /** FITS: admitted as is; PREEMPTS: admitted once the planned victims are gone; NO: stays pending. */
    enum Outcome {
        FITS, PREEMPTS, NO;

        boolean admits() {
            return this != NO;
        }
    }

    /** The change to the snapshot: queue specs replaced by name, holders whose quota is taken as freed. */
    record Change(Map<String, ClusterQueueSpec> queues, Set<WorkloadKey> gone) {
        static final Change NONE = new Change(Map.of(), Set.of());

        Change {
            queues = Map.copyOf(queues);
            gone = Set.copyOf(gone);
        }

        static Change queue(ClusterQueueSpec spec) {
            return new Change(Map.of(spec.name(), spec), Set.of());
        }

        static Change without(Set<WorkloadKey> holders) {
            return new Change(Map.of(), holders);
        }
    }

    /** At most this many workloads ahead are admitted first in a re-run, so a long queue keeps explain cheap. */
    static final int MAX_AHEAD = 100;

    private final SchedulerState state;
    private final SchedulerOptions options;

    WhatIfAdmission(SchedulerState state, SchedulerOptions options) {
        this.state = state;
        this.options = options;
    }

    /** The decision for the request in the ClusterQueue, over the state with the change applied. */
    Outcome decide(WorkloadRequest request, String clusterQueue, Change change) {
        Map<String, ClusterQueueSpec> specs = new HashMap<>(state.clusterQueues);
        specs.putAll(change.queues());
        ClusterQueueSpec spec = specs.get(clusterQueue);
        if (spec == null) return Outcome.NO;
        QuotaTree tree = QuotaTree.build(specs.values(), state.cohorts.values());
        if (!tree.hasClusterQueue(clusterQueue) || tree.inCohortCycle(clusterQueue)) return Outcome.NO;
        List<AdmittedWorkload> inTree = holders(tree, clusterQueue, request.key(), change.gone());
        List<AdmittedWorkload> own = inTree.stream().filter(w -> w.clusterQueue().equals(clusterQueue)).toList();
        PreemptionPlanner planner = new PreemptionPlanner(tree, options);
        if (!admitAhead(request, spec, specs, tree)) return Outcome.NO;
        PlannedPreemptionOracle oracle = new PlannedPreemptionOracle(planner, tree, spec, request, own, () -> inTree);
        FlavorAssignment assignment = new FlavorAssigner(spec, Collections.unmodifiableMap(state.flavors), tree,
                options.fairSharing(), oracle).assign(request);
        if (assignment.mode() == FitMode.FIT) return Outcome.FITS;
        if (assignment.mode() != FitMode.PREEMPT) return Outcome.NO;
        Set<FlavorResource> shortOf = new HashSet<>();
        for (Map.Entry<FlavorResource, Long> wanted : assignment.usage().entrySet()) {
            if (wanted.getValue() > tree.available(clusterQueue, wanted.getKey())) shortOf.add(wanted.getKey());
        }
        if (shortOf.isEmpty()) return Outcome.NO;
        PreemptionRequest preemption = new PreemptionRequest(spec, request.priority(), request.creationMillis(),
                assignment.usage(), Set.copyOf(shortOf));
        return planner.plan(preemption, inTree).isEmpty() ? Outcome.NO : Outcome.PREEMPTS;
    }

    /**
     * The pending workloads the cycle takes before the request in its ClusterQueue: each that fits
     * under the change is admitted first (its usage added), as the scheduler would; under StrictFIFO
     * one that does not fit blocks the request (false).
     */
    private boolean admitAhead(WorkloadRequest request, ClusterQueueSpec spec, Map<String, ClusterQueueSpec> specs, QuotaTree tree) {
        PendingQueue pending = state.pending.get(spec.name());
        if (pending == null) return true;
        int looked = 0;
        for (WorkloadEntry ahead : pending.inOrder(state.localQueueUsage.orderingFor(state.clusterQueues.get(spec.name())))) {
            if (ahead.key().equals(request.key()) || !before(ahead.request, request) || looked++ == MAX_AHEAD) break;
            FlavorAssignment assignment = new FlavorAssigner(specs.get(spec.name()), Collections.unmodifiableMap(state.flavors), tree,
                    options.fairSharing()).assign(ahead.request);
            if (assignment.mode() == FitMode.FIT) tree.addUsage(spec.name(), assignment.usage());
            else if (spec.queueingStrategy() == dev.berth.manager.model.QueueingStrategy.STRICT_FIFO) return false;
        }
        return true;
    }

    /** Whether the scheduler orders {@code a} before {@code b}: higher priority, then earlier creation. */
    private static boolean before(WorkloadRequest a, WorkloadRequest b) {
        if (a.priority() != b.priority()) return a.priority() > b.priority();
        return a.creationMillis() < b.creationMillis();
    }

    /**
     * Adds every holder's usage (and every preemptor's held quota) to the fresh tree, but the gone
     * ones' and the request's own; returns the holders of the queue's cohort tree in victim order.
     */
    private List<AdmittedWorkload> holders(QuotaTree tree, String clusterQueue, WorkloadKey self, Set<WorkloadKey> gone) {
        for (WorkloadEntry entry : state.workloads.values()) { // holds are few; a cheap skip per workload
            if (entry.preemptionHold == null || entry.key().equals(self) || !tree.hasClusterQueue(entry.preemptionHoldQueue)) continue;
            tree.addUsage(entry.preemptionHoldQueue, entry.preemptionHold);
        }
        Set<String> inTree = new HashSet<>(tree.hasCohort(clusterQueue) ? tree.clusterQueuesInTree(clusterQueue) : List.of(clusterQueue));
        List<AdmittedWorkload> admitted = new ArrayList<>();
        for (Map.Entry<String, java.util.Set<WorkloadEntry>> reserved : state.reservedByQueue.entrySet()) {
            if (!tree.hasClusterQueue(reserved.getKey())) continue;
            for (WorkloadEntry holder : reserved.getValue()) {
                if (gone.contains(holder.key()) || holder.key().equals(self)) continue;
                tree.addUsage(reserved.getKey(), holder.usage);
                if (inTree.contains(reserved.getKey())) {
                    admitted.add(new AdmittedWorkload(holder.key(), reserved.getKey(), holder.request.priority(),
                            holder.request.creationMillis(), holder.reservedAtMillis, holder.usage));
                }
            }
        }
        PreemptionPlanner.inVictimOrder(admitted);
        return admitted;
    }
}
