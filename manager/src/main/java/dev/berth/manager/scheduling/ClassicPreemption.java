package dev.berth.manager.scheduling;

import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.protocol.Conditions.Reasons;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's classical preemption (preemption.go classicalPreemptions with
 * classical/hierarchical_preemption.go): each candidate is classified as in the preemptor's own
 * queue, a hierarchical reclaim (the preemptor's subtree provides the quota the candidate's queue
 * borrows, so priority beyond the reclaim policy does not matter and the preemptor may borrow), or a
 * reclaim by priority that borrowWithinCohort decides whether the preemptor may do while borrowing.
 * Candidates are taken in that order until the workload fits, in one or two runs (with and without
 * borrowing), then every victim it can do without is added back.
 */
final class ClassicPreemption {
    enum Kind { WITHIN_QUEUE, HIERARCHICAL_RECLAIM, RECLAIM_WITHOUT_BORROWING, RECLAIM_WHILE_BORROWING }

    record Candidate(AdmittedWorkload workload, Kind kind, QuotaNode common) {}

    private final QuotaTree quota;

    ClassicPreemption(QuotaTree quota) {
        this.quota = quota;
    }

    /**
     * Plans over candidates already allowed by the queue's policies and in victim order, other
     * queues' first; {@code hierarchy} is null when the queue does not reclaim in a cohort.
     */
    List<PreemptionTarget> plan(PreemptionRequest request, List<AdmittedWorkload> allowed, HierarchicalReclaim hierarchy,
                                boolean underNominal) {
        List<Candidate> classified = classify(request, allowed, hierarchy);
        boolean fromOtherQueues = classified.stream().anyMatch(c -> c.kind() != Kind.WITHIN_QUEUE);
        boolean hierarchical = classified.stream().anyMatch(c -> c.kind() == Kind.HIERARCHICAL_RECLAIM);
        boolean borrowWithinCohortForbidden = request.queue().preemption().borrowWithinCohortPolicy() == PreemptionPolicy.NEVER;
        List<Boolean> attempts;
        if (!fromOtherQueues || (borrowWithinCohortForbidden && !underNominal)) attempts = List.of(true);
        else if (borrowWithinCohortForbidden && !hierarchical) attempts = List.of(false, true);
        else attempts = List.of(true, false);
        for (boolean borrowing : attempts) {
            List<PreemptionTarget> targets = minimal(request, classified, borrowing);
            if (!targets.isEmpty()) return targets;
        }
        return List.of();
    }

    /** Kueue's candidate order: hierarchical reclaims, then reclaims by priority, then the queue's own; each in victim order. */
    private List<Candidate> classify(PreemptionRequest request, List<AdmittedWorkload> allowed, HierarchicalReclaim hierarchy) {
        String queue = request.queue().name();
        var preemption = request.queue().preemption();
        Integer threshold = preemption.borrowWithinCohortMaxPriorityThreshold();
        boolean borrowWithinCohort = preemption.borrowWithinCohortPolicy() != PreemptionPolicy.NEVER;
        List<Candidate> hierarchical = new ArrayList<>();
        List<Candidate> byPriority = new ArrayList<>();
        List<Candidate> own = new ArrayList<>();
        for (AdmittedWorkload workload : allowed) {
            if (workload.clusterQueue().equals(queue)) {
                own.add(new Candidate(workload, Kind.WITHIN_QUEUE, null));
                continue;
            }
            QuotaNode other = quota.nodeOf(workload.clusterQueue());
            QuotaNode common = hierarchy == null ? null : hierarchy.commonAncestor(other);
            if (common == null) continue;
            if (hierarchy.hasAdvantageOver(other)) {
                hierarchical.add(new Candidate(workload, Kind.HIERARCHICAL_RECLAIM, common));
            } else {
                boolean aboveThreshold = workload.priority() >= request.priority()
                        || (threshold != null && workload.priority() > threshold);
                Kind kind = borrowWithinCohort && !aboveThreshold ? Kind.RECLAIM_WHILE_BORROWING : Kind.RECLAIM_WITHOUT_BORROWING;
                byPriority.add(new Candidate(workload, kind, common));
            }
        }
        List<Candidate> ordered = new ArrayList<>(hierarchical);
        ordered.addAll(byPriority);
        ordered.addAll(own);
        return ordered;
    }

    /** Only the queue's own workloads, for a queue that can make room only in itself. */
    List<PreemptionTarget> withinQueue(PreemptionRequest request, List<AdmittedWorkload> own) {
        return minimal(request, own.stream().map(w -> new Candidate(w, Kind.WITHIN_QUEUE, null)).toList(), true);
    }

    private List<PreemptionTarget> minimal(PreemptionRequest request, List<Candidate> candidates, boolean borrowing) {
        String queue = request.queue().name();
        List<AdmittedWorkload> removed = new ArrayList<>();
        List<Candidate> taken = new ArrayList<>();
        boolean fits = false;
        for (Candidate candidate : candidates) {
            if (!stillWorthPreempting(request, candidate, borrowing)) continue;
            AdmittedWorkload workload = candidate.workload();
            quota.removeUsage(workload.clusterQueue(), workload.usage());
            removed.add(workload);
            taken.add(candidate);
            if (quota.fits(queue, request.usage(), borrowing)) {
                fits = true;
                break;
            }
        }
        if (!fits) {
            restore(removed);
            return List.of();
        }
        List<AdmittedWorkload> needed = PreemptionPlanner.fillBack(quota, request, removed, borrowing);
        restore(needed);
        boolean preemptorBorrows = quota.hasCohort(queue) && request.usage().entrySet().stream()
                .anyMatch(e -> quota.borrowingWith(queue, e.getKey(), e.getValue()));
        List<PreemptionTarget> targets = new ArrayList<>();
        for (Candidate candidate : taken) {
            if (needed.contains(candidate.workload())) {
                targets.add(new PreemptionTarget(candidate.workload(), reason(candidate, preemptorBorrows)));
            }
        }
        return targets;
    }

    /** Kueue's candidateIsValid: a reclaim by priority only without borrowing, and only from a subtree still above its quota. */
    private boolean stillWorthPreempting(PreemptionRequest request, Candidate candidate, boolean borrowing) {
        if (candidate.kind() == Kind.WITHIN_QUEUE) return true;
        if (borrowing && candidate.kind() == Kind.RECLAIM_WITHOUT_BORROWING) return false;
        QuotaNode queue = quota.nodeOf(candidate.workload().clusterQueue());
        return HierarchicalReclaim.overQuotaBelow(queue, candidate.common(), request.needingPreemption());
    }

    private void restore(List<AdmittedWorkload> removed) {
        for (AdmittedWorkload workload : removed) quota.addUsage(workload.clusterQueue(), workload.usage());
    }

    private static String reason(Candidate candidate, boolean preemptorBorrows) {
        return switch (candidate.kind()) {
            case WITHIN_QUEUE -> Reasons.IN_CLUSTER_QUEUE;
            case HIERARCHICAL_RECLAIM -> Reasons.IN_COHORT_RECLAMATION;
            default -> preemptorBorrows ? Reasons.IN_COHORT_RECLAIM_WHILE_BORROWING : Reasons.IN_COHORT_RECLAMATION;
        };
    }
}
