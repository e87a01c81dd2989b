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
    Simulation simulate(FlavorResource flavorResource, long quantity);

    /**
     * The outcome of a simulation, and Kueue's borrowAfterPreemptions: the borrowing level the workload
     * would have once the candidates were gone (0 when it would not borrow), or {@link #UNKNOWN_LEVEL}
     * when the oracle does not compute it.
     */
    record Simulation(Possibility possibility, int borrowingLevel) {
    }

    /** The borrowing level of an oracle that does not simulate: the assigner then judges by nominal quota alone. */
    int UNKNOWN_LEVEL = -1;

    enum Possibility {
        /** Preemption is allowed in principle, but no admitted workload may be preempted. */
        NO_CANDIDATES,
        /** At least one of the workloads to preempt is in the workload's own ClusterQueue. */
        PREEMPT,
        /** Every workload to preempt is in another ClusterQueue that borrows: the workload reclaims its quota. */
        RECLAIM
    }

    /** The oracle of callers that do not simulate: every flavor needing preemption is taken to have candidates. */
    PreemptionOracle OPTIMISTIC = (fr, quantity) -> new Simulation(Possibility.PREEMPT, UNKNOWN_LEVEL);
}
