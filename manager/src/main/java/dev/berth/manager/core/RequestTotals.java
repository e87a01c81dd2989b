package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.WorkloadRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a whole request asks for per resource, pods included (the flavor assigner counts them where a queue covers them). */
final class RequestTotals {
    private RequestTotals() {}

    static Map<String, Long> of(WorkloadRequest request) {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (PodSetRequest podSet : request.podSets()) {
            for (Map.Entry<String, Long> perPod : podSet.perPodRequests().entrySet()) {
                totals.merge(perPod.getKey(), Amounts.multiply(perPod.getValue(), podSet.count()), Amounts::add);
            }
            totals.merge("pods", (long) podSet.count(), Amounts::add);
        }
        return totals;
    }
}
