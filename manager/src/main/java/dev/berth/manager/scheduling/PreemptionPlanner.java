package dev.berth.manager.scheduling;

import dev.berth.manager.model.PreemptionPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Kueue's preemption: find candidates allowed by the queue's policies, then the smallest set of
 * them whose eviction lets the pending workload fit (remove candidates in order until it fits, then
 * add back every one it can do without). With fair sharing on, victims are chosen by dominant
 * resource share under the configured strategies instead.
 *
 * <p>The planner works on the quota tree it is given and leaves it exactly as it found it.
 */
public final class PreemptionPlanner {
    private final QuotaTree quota;
    private final FairSharingSettings options;

    public PreemptionPlanner(QuotaTree quota, FairSharingSettings options) {
        this.quota = quota;
        this.options = options;
    }

    public List<PreemptionTarget> plan(PreemptionRequest request, Collection<AdmittedWorkload> admitted) {
        String queue = request.queue().name();
        List<AdmittedWorkload> ownQueue = admitted.stream().filter(w -> w.clusterQueue().equals(queue)).toList();
        return plan(request, ownQueue, () -> admitted);
    }

    /**
     * The same plan as {@link #plan(PreemptionRequest, Collection)}, for a caller that has the queue's
     * own admitted workloads at hand ({@code ownQueue}, the subset of the cohort tree's in the queue
     * itself) and builds the whole tree's list only if it is needed: a queue that can make room only in
     * itself never looks at the others.
     */
    public List<PreemptionTarget> plan(PreemptionRequest request, Collection<AdmittedWorkload> ownQueue,
                                       Supplier<? extends Collection<AdmittedWorkload>> cohortTree) {
        HierarchicalReclaim hierarchy = reclaimsInCohort(request)
                ? new HierarchicalReclaim(quota, request.queue().name(), request.usage()) : null;
        ClassicPreemption classic = new ClassicPreemption(quota);
        if (onlyOwnQueueCanMakeRoom(request, hierarchy)) return classic.withinQueue(request, candidatesInOwnQueue(request, ownQueue));
        Collection<AdmittedWorkload> admitted = cohortTree.get();
        List<AdmittedWorkload> candidates = candidates(request, admitted);
        if (candidates.isEmpty()) return List.of();
        if (options.fairSharing() && quota.hasCohort(request.queue().name())) {
            return new FairPreemption(quota, options.preemptionStrategies()).plan(request, candidates);
        }
        return classic.plan(request, candidates, hierarchy, underNominalWhereShort(request));
    }

    private boolean reclaimsInCohort(PreemptionRequest request) {
        return quota.hasCohort(request.queue().name())
                && request.queue().preemption().reclaimWithinCohort() != PreemptionPolicy.NEVER;
    }

    /**
     * A shortcut that skips looking at other queues' workloads: without borrowWithinCohort, a queue
     * already at its nominal quota where it is short, and without the hierarchical advantage anywhere
     * in its tree, can only preempt in its own queue (other queues' candidates are then all reclaims by
     * priority, which need the preemptor not to borrow).
     */
    private boolean onlyOwnQueueCanMakeRoom(PreemptionRequest request, HierarchicalReclaim hierarchy) {
        String queue = request.queue().name();
        if (options.fairSharing() && quota.hasCohort(queue)) return false;
        return request.queue().preemption().borrowWithinCohortPolicy() == PreemptionPolicy.NEVER
                && !underNominalWhereShort(request)
                && (hierarchy == null || !hierarchy.hasAdvantageSomewhere());
    }

    private List<AdmittedWorkload> candidatesInOwnQueue(PreemptionRequest request, Collection<AdmittedWorkload> admitted) {
        String queue = request.queue().name();
        PreemptionPolicy policy = request.queue().preemption().withinClusterQueue();
        List<AdmittedWorkload> sameQueue = new ArrayList<>();
        for (AdmittedWorkload workload : admitted) {
            if (workload.clusterQueue().equals(queue) && usesAny(workload, request)
                    && allowedWithinQueue(policy, workload, request)) {
                sameQueue.add(workload);
            }
        }
        sameQueue.sort(VICTIM_ORDER);
        return sameQueue;
    }

    private boolean underNominalWhereShort(PreemptionRequest request) {
        String queue = request.queue().name();
        return request.needingPreemption().stream().allMatch(fr -> quota.usage(queue, fr) < quota.nominal(queue, fr));
    }

    /** Adds back, newest removal first, every victim the pending workload can fit without. */
    static List<AdmittedWorkload> fillBack(QuotaTree quota, PreemptionRequest request, List<AdmittedWorkload> removed, boolean allowBorrowing) {
        List<AdmittedWorkload> needed = new ArrayList<>(removed);
        String queue = request.queue().name();
        for (int i = needed.size() - 2; i >= 0; i--) {
            AdmittedWorkload candidate = needed.get(i);
            quota.addUsage(candidate.clusterQueue(), candidate.usage());
            if (quota.fits(queue, request.usage(), allowBorrowing)) {
                needed.remove(i);
            } else {
                quota.removeUsage(candidate.clusterQueue(), candidate.usage());
            }
        }
        return needed;
    }

    /**
     * Kueue's victim order within each group: workloads already evicted (still stopping) first, then
     * lower priority, then the most recently reserved, then by key (a total order, so the result does
     * not depend on the input order).
     */
    private static final Comparator<AdmittedWorkload> VICTIM_ORDER = (a, b) -> {
        if (a.evicted() != b.evicted()) return a.evicted() ? -1 : 1;
        if (a.priority() != b.priority()) return Integer.compare(a.priority(), b.priority());
        if (a.reservedAtMillis() != b.reservedAtMillis()) return Long.compare(b.reservedAtMillis(), a.reservedAtMillis());
        return a.key().compareTo(b.key());
    };

    /**
     * Candidates allowed by the policies, ordered as Kueue orders them: other queues first, lower
     * priority, newest. Each group is sorted on its own, which is nearly linear when the caller
     * passes {@code admitted} already in {@link #VICTIM_ORDER} (see {@link #inVictimOrder}).
     */
    private List<AdmittedWorkload> candidates(PreemptionRequest request, Collection<AdmittedWorkload> admitted) {
        String queue = request.queue().name();
        var preemption = request.queue().preemption();
        boolean inCohort = quota.hasCohort(queue);
        String root = quota.rootOf(queue);
        List<AdmittedWorkload> otherQueues = new ArrayList<>();
        List<AdmittedWorkload> sameQueue = new ArrayList<>();
        for (AdmittedWorkload workload : admitted) {
            if (!usesAny(workload, request)) continue;
            if (workload.clusterQueue().equals(queue)) {
                if (allowedWithinQueue(preemption.withinClusterQueue(), workload, request)) sameQueue.add(workload);
            } else if (inCohort && quota.hasClusterQueue(workload.clusterQueue())
                    && root.equals(quota.rootOf(workload.clusterQueue()))
                    && allowedInCohort(preemption.reclaimWithinCohort(), workload, request)) {
                otherQueues.add(workload);
            }
        }
        otherQueues.sort(VICTIM_ORDER);
        sameQueue.sort(VICTIM_ORDER);
        otherQueues.addAll(sameQueue);
        return evictedFirst(otherQueues);
    }

    /** Kueue orders workloads already evicted before all others, whichever queue holds them (a stable move). */
    private static List<AdmittedWorkload> evictedFirst(List<AdmittedWorkload> candidates) {
        if (candidates.stream().noneMatch(AdmittedWorkload::evicted)) return candidates;
        List<AdmittedWorkload> ordered = new ArrayList<>(candidates.stream().filter(AdmittedWorkload::evicted).toList());
        candidates.stream().filter(w -> !w.evicted()).forEach(ordered::add);
        return ordered;
    }

    /** Sorts workloads into the planner's victim order, so that {@link #plan} can order candidates cheaply. */
    public static void inVictimOrder(List<AdmittedWorkload> admitted) {
        admitted.sort(VICTIM_ORDER);
    }

    private static boolean usesAny(AdmittedWorkload workload, PreemptionRequest request) {
        for (var fr : request.needingPreemption()) {
            if (workload.usage().getOrDefault(fr, 0L) > 0) return true;
        }
        return false;
    }

    private static boolean allowedWithinQueue(PreemptionPolicy policy, AdmittedWorkload victim, PreemptionRequest request) {
        return switch (policy) {
            case LOWER_PRIORITY -> victim.priority() < request.priority();
            case LOWER_OR_NEWER_EQUAL_PRIORITY -> victim.priority() < request.priority()
                    || (victim.priority() == request.priority() && victim.creationMillis() > request.creationMillis());
            case ANY -> true;
            case NEVER -> false;
        };
    }

    private static boolean allowedInCohort(PreemptionPolicy policy, AdmittedWorkload victim, PreemptionRequest request) {
        return switch (policy) {
            case ANY -> true;
            case LOWER_PRIORITY -> victim.priority() < request.priority();
            case LOWER_OR_NEWER_EQUAL_PRIORITY -> victim.priority() < request.priority()
                    || (victim.priority() == request.priority() && victim.creationMillis() > request.creationMillis());
            case NEVER -> false;
        };
    }
}
