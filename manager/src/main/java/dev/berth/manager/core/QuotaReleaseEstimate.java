package dev.berth.manager.core;

import dev.berth.manager.core.WhatIfAdmission.Change;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When the quota a pending workload needs frees up at the latest: the admitted workloads of its
 * cohort tree that use a resource it asks for and have a spec.maximumExecutionTimeSeconds end by
 * their deadline (Kueue deactivates them then; see {@link ExecutionTimeLimit}). Taking them away in
 * deadline order, the first re-run that admits the workload gives the instant. Workloads without a
 * limit may end sooner; they are not counted, so this is an upper bound on the wait for quota.
 */
final class QuotaReleaseEstimate {
    /** At most this many deadlines are tried, each a re-run. */
    static final int MAX_HOLDERS = 64;

    private QuotaReleaseEstimate() {}

    static AdmissionAdvice.Release of(AdmissionAdvisor advisor, SchedulerState state, WorkloadEntry entry, String queue) {
        Set<String> resources = RequestTotals.of(entry.request).keySet();
        List<String> tree = state.quota.hasCohort(queue) ? state.quota.clusterQueuesInTree(queue) : List.of(queue);
        List<Deadline> deadlines = new ArrayList<>();
        for (String name : tree) {
            for (WorkloadEntry holder : state.reservedByQueue.getOrDefault(name, Set.of())) {
                Instant at = deadline(holder);
                if (at != null && uses(holder.usage, resources)) deadlines.add(new Deadline(holder.key(), at));
            }
        }
        deadlines.sort(Comparator.comparing(Deadline::at).thenComparing(d -> d.key().toString()));
        Set<WorkloadKey> gone = new HashSet<>();
        int sameNamespace = 0;
        for (Deadline deadline : deadlines.subList(0, Math.min(MAX_HOLDERS, deadlines.size()))) {
            gone.add(deadline.key());
            if (deadline.key().namespace().equals(entry.key().namespace())) sameNamespace++;
            if (advisor.decide(entry.request, queue, Change.without(gone)).admits()) {
                return new AdmissionAdvice.Release(deadline.at(), gone.size(), sameNamespace);
            }
        }
        return null;
    }

    private record Deadline(WorkloadKey key, Instant at) {
    }

    /** Admitted at the last Admitted=True transition, minus the execution time used by earlier admissions. */
    private static Instant deadline(WorkloadEntry holder) {
        Long limit = holder.request.maximumExecutionTimeSeconds();
        Condition admitted = holder.status.condition(Conditions.ADMITTED);
        if (limit == null || admitted == null || !admitted.status() || admitted.lastTransitionTime() == null) return null;
        Long past = holder.status.accumulatedPastExecutionTimeSeconds();
        return admitted.lastTransitionTime().plus(Duration.ofSeconds(limit - (past == null ? 0 : past)));
    }

    private static boolean uses(Map<FlavorResource, Long> usage, Set<String> resources) {
        return usage.entrySet().stream().anyMatch(u -> u.getValue() > 0 && resources.contains(u.getKey().resource()));
    }
}
