package dev.berth.manager.scheduling;

/** A workload to evict so that a pending one fits, and Kueue's reason (InClusterQueue, InCohortReclamation, ...). */
public record PreemptionTarget(AdmittedWorkload victim, String reason) {
}
