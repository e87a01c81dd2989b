package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.PreemptionOracle;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.manager.scheduling.PreemptionRequest;
import dev.berth.manager.scheduling.PreemptionTarget;
import dev.berth.manager.scheduling.QuotaTree;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Kueue's SimulatePreemption: runs the preemption planner for one flavor-resource, as if the workload
 * needed only that, and says whether it found anyone to preempt and whether all of them are in other
 * ClusterQueues (a reclaim), and how far up the cohort tree the workload would borrow once they were
 * gone (Kueue's borrowAfterPreemptions). The planner, and this oracle, leave the quota tree as they found it.
 */
final class PlannedPreemptionOracle implements PreemptionOracle {
    private final PreemptionPlanner planner;
    private final QuotaTree quota;
    private final ClusterQueueSpec queue;
    private final WorkloadRequest request;
    private final Collection<AdmittedWorkload> ownQueue;
    private final Supplier<? extends Collection<AdmittedWorkload>> cohortTree;

    PlannedPreemptionOracle(PreemptionPlanner planner, QuotaTree quota, ClusterQueueSpec queue, WorkloadEntry entry,
                            Collection<AdmittedWorkload> ownQueue, Supplier<? extends Collection<AdmittedWorkload>> cohortTree) {
        this(planner, quota, queue, entry.request, ownQueue, cohortTree);
    }

    /** For a request that is not (or not yet) an entry: explain's re-runs over a modified snapshot. */
    PlannedPreemptionOracle(PreemptionPlanner planner, QuotaTree quota, ClusterQueueSpec queue, WorkloadRequest request,
                            Collection<AdmittedWorkload> ownQueue, Supplier<? extends Collection<AdmittedWorkload>> cohortTree) {
        this.planner = planner;
        this.quota = quota;
        this.queue = queue;
        this.request = request;
        this.ownQueue = ownQueue;
        this.cohortTree = cohortTree;
    }

    @Override
    public Simulation simulate(FlavorResource flavorResource, long quantity) {
        PreemptionRequest request = new PreemptionRequest(queue, this.request.priority(), this.request.creationMillis(),
                Map.of(flavorResource, quantity), Set.of(flavorResource));
        List<PreemptionTarget> targets = planner.plan(request, ownQueue, cohortTree);
        int level = borrowingLevelWithout(targets, flavorResource, quantity);
        if (targets.isEmpty()) return new Simulation(Possibility.NO_CANDIDATES, level);
        for (PreemptionTarget target : targets) {
            if (target.victim().clusterQueue().equals(queue.name())) return new Simulation(Possibility.PREEMPT, level);
        }
        return new Simulation(Possibility.RECLAIM, level);
    }

    /** Kueue's SimulateWorkloadUsageRemoval around FindHeightOfLowestSubtreeThatFits: the level with the targets' usage removed. */
    private int borrowingLevelWithout(List<PreemptionTarget> targets, FlavorResource flavorResource, long quantity) {
        List<PreemptionTarget> removed = targets.stream()
                .filter(target -> quota.hasClusterQueue(target.victim().clusterQueue())).toList();
        for (PreemptionTarget target : removed) quota.removeUsage(target.victim().clusterQueue(), target.victim().usage());
        try {
            return quota.borrowingLevel(queue.name(), flavorResource, quantity);
        } finally {
            for (PreemptionTarget target : removed) quota.addUsage(target.victim().clusterQueue(), target.victim().usage());
        }
    }
}
