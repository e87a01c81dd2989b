package dev.berth.manager.scheduling;

/**
 * Kueue's granular flavor mode, worst to best: the flavor assigner ranks flavors by it. A flavor that
 * needs preemption is a reclaim when everyone it would preempt borrows from another ClusterQueue, a
 * preempt when someone is in its own ClusterQueue, and stuck when no one may be preempted at all.
 */
enum FlavorRank {
    NO_FIT,
    NO_CANDIDATES,
    PREEMPT,
    RECLAIM,
    FIT;

    FlavorRank worse(FlavorRank other) {
        return ordinal() <= other.ordinal() ? this : other;
    }

    boolean isViable() {
        return this != NO_FIT;
    }

    boolean needsPreemption() {
        return this == PREEMPT || this == RECLAIM;
    }

    FitMode fitMode() {
        return switch (this) {
            case NO_FIT -> FitMode.NO_FIT;
            case NO_CANDIDATES, PREEMPT, RECLAIM -> FitMode.PREEMPT;
            case FIT -> FitMode.FIT;
        };
    }
}
