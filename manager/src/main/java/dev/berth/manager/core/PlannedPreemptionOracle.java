package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.PreemptionOracle;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.manager.scheduling.PreemptionRequest;
import dev.berth.manager.scheduling.PreemptionTarget;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Kueue's SimulatePreemption: runs the preemption planner for one flavor-resource, as if the workload
 * needed only that, and says whether it found anyone to preempt and whether all of them are in other
 * ClusterQueues (a reclaim). The planner leaves the quota tree as it found it.
 */
final class PlannedPreemptionOracle implements PreemptionOracle {
    private final PreemptionPlanner planner;
    private final ClusterQueueSpec queue;
    private final WorkloadEntry entry;
    private final Collection<AdmittedWorkload> ownQueue;
    private final Supplier<? extends Collection<AdmittedWorkload>> cohortTree;

    PlannedPreemptionOracle(PreemptionPlanner planner, ClusterQueueSpec queue, WorkloadEntry entry,
                            Collection<AdmittedWorkload> ownQueue, Supplier<? extends Collection<AdmittedWorkload>> cohortTree) {
        this.planner = planner;
        this.queue = queue;
        this.entry = entry;
        this.ownQueue = ownQueue;
        this.cohortTree = cohortTree;
    }

    @Override
    public Possibility simulate(FlavorResource flavorResource, long quantity) {
        PreemptionRequest request = new PreemptionRequest(queue, entry.request.priority(), entry.request.creationMillis(),
                Map.of(flavorResource, quantity), Set.of(flavorResource));
        List<PreemptionTarget> targets = planner.plan(request, ownQueue, cohortTree);
        if (targets.isEmpty()) return Possibility.NO_CANDIDATES;
        for (PreemptionTarget target : targets) {
            if (target.victim().clusterQueue().equals(queue.name())) return Possibility.PREEMPT;
        }
        return Possibility.RECLAIM;
    }
}
