package dev.berth.manager.scheduling;

/** How a workload fits its ClusterQueue, worst to best. */
public enum FitMode {
    /** It cannot be admitted, even by preempting. */
    NO_FIT,
    /** It can be admitted only after preempting other workloads. */
    PREEMPT,
    /** It can be admitted now. */
    FIT;

    public FitMode worse(FitMode other) {
        return ordinal() <= other.ordinal() ? this : other;
    }
}
