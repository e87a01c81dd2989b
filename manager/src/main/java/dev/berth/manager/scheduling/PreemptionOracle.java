package dev.berth.manager.scheduling;

import dev.berth.manager.model.FlavorResource;

/**
 * Kueue's preemption oracle: while the flavor assigner looks at a flavor where the workload fits only
 * by preempting, it asks whether preemption could make room there, and whom it would take. A flavor
 * with no candidates does not end the flavor search, and a flavor where the workload only reclaims
 * quota lent to other ClusterQueues ranks above one where it preempts in its own ClusterQueue.
 */
@FunctionalInterface
public interface PreemptionOracle {
    /** What preemption could do on this flavor-resource for {@code quantity} (what the workload would use there). */
    Possibility simulate(FlavorResource flavorResource, long quantity);

    enum Possibility {
        /** Preemption is allowed in principle, but no admitted workload may be preempted. */
        NO_CANDIDATES,
        /** At least one of the workloads to preempt is in the workload's own ClusterQueue. */
        PREEMPT,
        /** Every workload to preempt is in another ClusterQueue that borrows: the workload reclaims its quota. */
        RECLAIM
    }

    /** The oracle of callers that do not simulate: every flavor needing preemption is taken to have candidates. */
    PreemptionOracle OPTIMISTIC = (fr, quantity) -> Possibility.PREEMPT;
}
