package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The pending workloads the scheduler takes before this one in its ClusterQueue that ask for a resource it asks for too. */
final class WorkloadsAhead {
    private WorkloadsAhead() {}

    static AdmissionAdvice.Ahead of(SchedulerState state, WorkloadEntry entry) {
        PendingQueue queue = entry.clusterQueue == null ? null : state.pending.get(entry.clusterQueue);
        if (queue == null) return AdmissionAdvice.Ahead.NONE;
        Set<String> wanted = RequestTotals.of(entry.request).keySet();
        List<WorkloadEntry> ordered = queue.inOrder(state.localQueueUsage.orderingFor(state.clusterQueues.get(entry.clusterQueue)));
        int count = 0;
        Map<String, Long> needs = new LinkedHashMap<>();
        for (WorkloadEntry other : ordered) {
            if (other == entry) break;
            Map<String, Long> totals = RequestTotals.of(other.request);
            boolean same = false;
            for (Map.Entry<String, Long> total : totals.entrySet()) {
                if (total.getKey().equals("pods") || !wanted.contains(total.getKey()) || total.getValue() <= 0) continue;
                same = true;
                needs.merge(total.getKey(), total.getValue(), Amounts::add);
            }
            if (same) count++;
        }
        return new AdmissionAdvice.Ahead(count, needs);
    }
}
