package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.QuotaTree;
import java.util.HashMap;
import java.util.Map;

/**
 * Kueue's reserveCapacityForUnreclaimablePreempt: a workload that needs preemption but has no one to
 * preempt reserves, for the cycle, the quota it waits for, so that workloads of other ClusterQueues
 * ordered after it cannot borrow it. Within nominal quota that is min(request, nominal - usage); when
 * it borrows, up to nominal + borrowingLimit - usage (all of it without a limit). A queue whose
 * reclaimWithinCohort is Any can always take lent quota back, so it reserves nothing (unless the
 * workload is a preemptor Berth holds quota for).
 */
final class UnreclaimableReservation {
    private UnreclaimableReservation() {}

    static Map<FlavorResource, Long> of(ClusterQueueSpec queue, FlavorAssignment assignment, QuotaTree quota, boolean preemptor) {
        if (queue.preemption().reclaimWithinCohort() == PreemptionPolicy.ANY && !preemptor) return Map.of();
        Map<FlavorResource, Long> reserved = new HashMap<>();
        for (Map.Entry<FlavorResource, Long> wanted : assignment.usage().entrySet()) {
            FlavorResource fr = wanted.getKey();
            long usage = quota.usage(queue.name(), fr);
            long nominal = quota.nominal(queue.name(), fr);
            long amount;
            if (assignment.borrows()) {
                Long limit = quota.borrowingLimit(queue.name(), fr);
                amount = limit == null ? wanted.getValue()
                        : Math.min(wanted.getValue(), Amounts.subtract(Amounts.add(nominal, limit), usage));
            } else {
                amount = Math.min(wanted.getValue(), Amounts.subtract(nominal, usage));
            }
            if (amount > 0) reserved.put(fr, amount);
        }
        return reserved;
    }
}
