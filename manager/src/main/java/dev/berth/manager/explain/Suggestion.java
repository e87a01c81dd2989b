package dev.berth.manager.explain;

/**
 * One change that would admit the workload now, verified by a re-run of the admission decision:
 * kind (NominalQuota, BorrowingLimit, LendingLimit, PodCount, PriorityClass, LocalQueue), the change
 * in one sentence, and whether the re-run admits it only by preempting others.
 */
public record Suggestion(String kind, String change, boolean preempts) {
}
