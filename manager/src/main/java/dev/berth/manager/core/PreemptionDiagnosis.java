package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.FitMode;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.manager.scheduling.PreemptionRequest;
import dev.berth.manager.scheduling.PreemptionTarget;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether preemption could make room for a pending workload: the scheduler's own
 * {@link PreemptionPlanner} decides (dry run), and when it finds nothing, the queue's policies and
 * the candidates in its cohort tree say why, in words.
 */
final class PreemptionDiagnosis {
    private final SchedulerState state;
    private final SchedulerOptions options;

    PreemptionDiagnosis(SchedulerState state, SchedulerOptions options) {
        this.state = state;
        this.options = options;
    }

    /** Null when the workload fits without preemption. */
    AdmissionDiagnosis.Preemption diagnose(ClusterQueueSpec queue, WorkloadEntry entry, FlavorAssignment full,
                                           List<AdmittedWorkload> admitted) {
        if (full.mode() == FitMode.FIT) return null;
        Map<FlavorResource, Long> usage = full.usage();
        Set<FlavorResource> shortOf = new HashSet<>();
        for (Map.Entry<FlavorResource, Long> wanted : usage.entrySet()) {
            if (wanted.getValue() > state.quota.available(queue.name(), wanted.getKey())) shortOf.add(wanted.getKey());
        }
        List<PreemptionTarget> targets = List.of();
        if (full.mode() == FitMode.PREEMPT && !shortOf.isEmpty()) {
            PreemptionRequest request = new PreemptionRequest(queue, entry.request.priority(), entry.request.creationMillis(),
                    usage, Set.copyOf(shortOf));
            targets = new PreemptionPlanner(state.quota, options).plan(request, admitted);
        }
        int candidates = 0;
        List<String> blockers = new ArrayList<>();
        var policy = queue.preemption();
        int priority = entry.request.priority();
        List<AdmittedWorkload> own = new ArrayList<>();
        List<AdmittedWorkload> others = new ArrayList<>();
        for (AdmittedWorkload workload : admitted) {
            boolean uses = shortOf.isEmpty() || shortOf.stream().anyMatch(fr -> workload.usage().getOrDefault(fr, 0L) > 0);
            if (!uses) continue;
            (workload.clusterQueue().equals(queue.name()) ? own : others).add(workload);
        }
        if (policy.withinClusterQueue() == PreemptionPolicy.NEVER) {
            blockers.add("withinClusterQueue is Never");
        } else {
            long allowed = own.stream().filter(w -> allowed(policy.withinClusterQueue(), w, entry)).count();
            candidates += (int) allowed;
            if (allowed == 0) blockers.add("no workload in ClusterQueue " + queue.name() + " that "
                    + policy.withinClusterQueue().wireName() + " allows to preempt (priority " + priority + ")");
        }
        if (queue.cohort() != null) {
            if (policy.reclaimWithinCohort() == PreemptionPolicy.NEVER) {
                blockers.add("reclaimWithinCohort is Never");
            } else {
                long allowed = others.stream().filter(w -> allowed(policy.reclaimWithinCohort(), w, entry)
                        && state.quota.isBorrowing(w.clusterQueue(), shortOf)).count();
                candidates += (int) allowed;
                if (allowed == 0) blockers.add("no other ClusterQueue in cohort " + queue.cohort()
                        + " borrows with workloads that " + policy.reclaimWithinCohort().wireName() + " allows to reclaim");
            }
            boolean borrows = usage.entrySet().stream().anyMatch(e -> e.getValue() > state.quota.nominal(queue.name(), e.getKey()));
            if (borrows && policy.borrowWithinCohortPolicy() == PreemptionPolicy.NEVER) {
                blockers.add("borrowWithinCohort is Never: a workload that must borrow cannot preempt in the cohort");
            } else if (borrows && policy.borrowWithinCohortMaxPriorityThreshold() != null) {
                blockers.add("borrowWithinCohort.maxPriorityThreshold " + policy.borrowWithinCohortMaxPriorityThreshold()
                        + ": only workloads at or below that priority can be preempted while borrowing");
            }
        }
        if (full.mode() == FitMode.PREEMPT && targets.isEmpty() && blockers.isEmpty()) {
            blockers.add("preempting every allowed candidate would still not free enough quota");
        }
        List<dev.berth.manager.model.WorkloadKey> keys = targets.stream().map(t -> t.victim().key()).toList();
        return new AdmissionDiagnosis.Preemption(!targets.isEmpty(), keys, candidates, targets.isEmpty() ? blockers : List.of());
    }

    private static boolean allowed(PreemptionPolicy policy, AdmittedWorkload victim, WorkloadEntry preemptor) {
        int priority = preemptor.request.priority();
        return switch (policy) {
            case ANY -> true;
            case LOWER_PRIORITY -> victim.priority() < priority;
            case LOWER_OR_NEWER_EQUAL_PRIORITY -> victim.priority() < priority
                    || (victim.priority() == priority && victim.creationMillis() > preemptor.request.creationMillis());
            case NEVER -> false;
        };
    }
}
