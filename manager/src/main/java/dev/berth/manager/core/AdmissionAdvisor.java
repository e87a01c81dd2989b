package dev.berth.manager.core;

import dev.berth.manager.core.WhatIfAdmission.Change;
import dev.berth.manager.core.WhatIfAdmission.Outcome;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.WorkloadRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * What would admit a pending workload now: for each kind of change (the queue's own nominal quota
 * and borrowingLimit, another queue's lendingLimit, fewer pods, a higher WorkloadPriorityClass,
 * another LocalQueue of the namespace) the smallest one that a re-run of the decision over the
 * modified snapshot admits ({@link WhatIfAdmission}). Amounts are found by bisection, each step a
 * re-run, and every remedy returned is the outcome of its own re-run. The number of re-runs is
 * bounded, so an explain request costs at most {@link #MAX_RERUNS} decisions.
 */
final class AdmissionAdvisor {
    static final int MAX_RERUNS = 256;

    private final SchedulerState state;
    private final WhatIfAdmission whatIf;
    private int reruns;

    AdmissionAdvisor(SchedulerState state, SchedulerOptions options) {
        this.state = state;
        this.whatIf = new WhatIfAdmission(state, options);
    }

    /** For a pending workload; priorityClasses: the WorkloadPriorityClasses by name and value. */
    AdmissionAdvice advise(WorkloadEntry entry, Map<String, Integer> priorityClasses) {
        if (!entry.active || entry.finished || entry.holdsQuota()) return AdmissionAdvice.NONE;
        List<AdmissionRemedy> remedies = new ArrayList<>();
        String queue = admittingQueue(state.localQueues.get(entry.localQueueKey));
        WorkloadRequest request = entry.request;
        AdmissionAdvice.Release release = null;
        if (queue != null) {
            if (decide(request, queue, Change.NONE).admits()) return AdmissionAdvice.NONE;
            quotaRemedies(request, state.clusterQueues.get(queue), remedies);
            podCountRemedies(request, queue, remedies);
            priorityRemedy(request, queue, priorityClasses, remedies);
            release = QuotaReleaseEstimate.of(this, state, entry, queue);
        }
        localQueueRemedies(entry, queue, remedies);
        return new AdmissionAdvice(remedies, release, WorkloadsAhead.of(state, entry));
    }

    /** The ClusterQueue a LocalQueue feeds when both admit new workloads of its namespace; null otherwise. */
    String admittingQueue(LocalQueueSpec local) {
        if (local == null || (local.stopPolicy() != null && local.stopPolicy().stopsAdmission())) return null;
        ClusterQueueSpec spec = state.clusterQueues.get(local.clusterQueue());
        if (spec == null || state.inactiveReason(spec) != null || spec.namespaceSelector() == null
                || !spec.namespaceSelector().matches(state.labelsOf(local.namespace()))) return null;
        return spec.name();
    }

    Outcome decide(WorkloadRequest request, String queue, Change change) {
        reruns++;
        return whatIf.decide(request, queue, change);
    }

    private boolean budgetLeft() {
        return reruns < MAX_RERUNS;
    }

    private void quotaRemedies(WorkloadRequest request, ClusterQueueSpec spec, List<AdmissionRemedy> remedies) {
        Map<String, Long> needed = RequestTotals.of(request);
        for (ResourceGroup group : spec.resourceGroups()) {
            for (FlavorQuotas flavor : group.flavors()) {
                if (!state.flavors.containsKey(flavor.flavor())) continue;
                for (ResourceQuota quota : flavor.resources()) {
                    Long requested = needed.get(quota.resource());
                    if (requested == null || !budgetLeft()) continue;
                    long total = requested + aheadNeeds(request, spec.name()).getOrDefault(quota.resource(), 0L) + state.quota.usage(spec.name(), new FlavorResource(flavor.flavor(), quota.resource()));
                    int before = remedies.size();
                    if (spec.cohort() != null && quota.borrowingLimit() != null) {
                        raise(AdmissionRemedy.Kind.BORROWING_LIMIT, spec, flavor.flavor(), quota, quota.borrowingLimit(), total, request,
                                spec.name(), QuotaChanges::borrowingLimit, remedies);
                    }
                    if (spec.cohort() != null) lendingRemedies(request, spec, flavor.flavor(), quota.resource(), total, remedies);
                    // A flavor given no quota for a resource (the default-cpu flavor's GPUs) is left alone: zero there is a choice.
                    if (remedies.size() == before && quota.nominal() > 0) {
                        raise(AdmissionRemedy.Kind.NOMINAL_QUOTA, spec, flavor.flavor(), quota, quota.nominal(), total, request,
                                spec.name(), QuotaChanges::nominal, remedies);
                    }
                }
            }
        }
    }

    /** Raises one limit of {@code owner} by the least amount up to {@code most} that a re-run admits. */
    private void raise(AdmissionRemedy.Kind kind, ClusterQueueSpec owner, String flavor, ResourceQuota quota, long current, long most,
                       WorkloadRequest request, String queue, LongFunction<java.util.function.UnaryOperator<ResourceQuota>> limit,
                       List<AdmissionRemedy> remedies) {
        LongFunction<Outcome> by = n -> decide(request, queue,
                Change.queue(QuotaChanges.withQuota(owner, flavor, quota.resource(), limit.apply(current + n))));
        long least = Bisection.least(1, most, n -> budgetLeft() && by.apply(n).admits());
        if (least < 0) return;
        Outcome verified = by.apply(least);
        if (!verified.admits()) return;
        Long from = kind == AdmissionRemedy.Kind.NOMINAL_QUOTA ? Long.valueOf(quota.nominal())
                : kind == AdmissionRemedy.Kind.BORROWING_LIMIT ? quota.borrowingLimit() : quota.lendingLimit();
        remedies.add(AdmissionRemedy.quota(kind, owner.name(), flavor, quota.resource(), from, current + least, verified == Outcome.PREEMPTS));
    }

    /** Another queue of the cohort tree lends less than its nominal quota there: lending more may admit. */
    private void lendingRemedies(WorkloadRequest request, ClusterQueueSpec spec, String flavor, String resource, long total,
                                 List<AdmissionRemedy> remedies) {
        for (String other : state.quota.clusterQueuesInTree(spec.name())) {
            ClusterQueueSpec lender = state.clusterQueues.get(other);
            if (other.equals(spec.name()) || lender == null || !budgetLeft()) continue;
            ResourceQuota quota = quotaOf(lender, flavor, resource);
            if (quota == null || quota.lendingLimit() == null || quota.lendingLimit() >= quota.nominal()) continue;
            long most = Math.min(total, quota.nominal() - quota.lendingLimit());
            raise(AdmissionRemedy.Kind.LENDING_LIMIT, lender, flavor, quota, quota.lendingLimit(), most, request, spec.name(),
                    QuotaChanges::lendingLimit, remedies);
        }
    }

    private void podCountRemedies(WorkloadRequest request, String queue, List<AdmissionRemedy> remedies) {
        for (int i = 0; i < request.podSets().size(); i++) {
            PodSetRequest podSet = request.podSets().get(i);
            if (podSet.count() <= 1 || !budgetLeft()) continue;
            int index = i;
            LongFunction<Outcome> at = m -> decide(QuotaChanges.withCount(request, index, (int) m), queue, Change.NONE);
            long fewest = Bisection.least(1, podSet.count() - 1, m -> budgetLeft() && at.apply(podSet.count() - m).admits());
            if (fewest < 0) continue;
            int count = podSet.count() - (int) fewest;
            Outcome verified = at.apply(count);
            if (verified.admits()) remedies.add(AdmissionRemedy.podCount(podSet.name(), podSet.count(), count, verified == Outcome.PREEMPTS));
        }
    }

    /** The lowest WorkloadPriorityClass above the workload's priority with which a re-run admits it. */
    private void priorityRemedy(WorkloadRequest request, String queue, Map<String, Integer> classes, List<AdmissionRemedy> remedies) {
        classes.entrySet().stream().filter(c -> c.getValue() > request.priority())
                .sorted(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .filter(c -> budgetLeft())
                .map(c -> Map.entry(c, decide(QuotaChanges.withPriority(request, c.getKey(), c.getValue()), queue, Change.NONE)))
                .filter(tried -> tried.getValue().admits()).findFirst()
                .ifPresent(tried -> remedies.add(AdmissionRemedy.priorityClass(tried.getKey().getKey(), request.priority(),
                        tried.getKey().getValue(), tried.getValue() == Outcome.PREEMPTS)));
    }

    /** Other LocalQueues of the namespace whose ClusterQueue admits the workload now. */
    private void localQueueRemedies(WorkloadEntry entry, String currentQueue, List<AdmissionRemedy> remedies) {
        Set<String> tried = new LinkedHashSet<>();
        for (LocalQueueSpec local : state.localQueues.values()) {
            if (!local.namespace().equals(entry.key().namespace()) || local.name().equals(entry.request.queueName()) || !budgetLeft()) continue;
            String queue = admittingQueue(local);
            if (queue == null || queue.equals(currentQueue) || !tried.add(queue + "/" + local.name())) continue;
            Outcome outcome = decide(QuotaChanges.withQueue(entry.request, local.name()), queue, Change.NONE);
            if (outcome.admits()) remedies.add(AdmissionRemedy.localQueue(local.name(), queue, outcome == Outcome.PREEMPTS));
        }
    }

    /** What the pending workloads ahead of the request in the queue ask for: a raise must leave room for them too. */
    private Map<String, Long> aheadNeeds(WorkloadRequest request, String queue) {
        WorkloadEntry entry = state.workloads.get(request.key());
        return entry == null || !queue.equals(entry.clusterQueue) ? Map.of() : WorkloadsAhead.of(state, entry).needs();
    }

    private static ResourceQuota quotaOf(ClusterQueueSpec spec, String flavor, String resource) {
        for (ResourceGroup group : spec.resourceGroups()) {
            for (FlavorQuotas fq : group.flavors()) {
                if (fq.flavor().equals(flavor)) return fq.quota(resource);
            }
        }
        return null;
    }
}
