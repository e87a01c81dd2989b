package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads {@link QueueMetrics} from the controller's state; runs on its thread, on demand (a scrape). */
final class QueueMetricsReader {
    private QueueMetricsReader() {}

    static QueueMetrics read(ClusterState state) {
        Map<String, Integer> unplaced = new HashMap<>();
        for (WorkloadEntry entry : state.unplaced) {
            if (entry.clusterQueue != null) unplaced.merge(entry.clusterQueue, 1, Integer::sum);
        }
        List<QueueMetrics.ClusterQueue> queues = new ArrayList<>(state.clusterQueues.size());
        for (ClusterQueueSpec spec : state.clusterQueues.values()) {
            String name = spec.name();
            PendingQueue pending = state.pending.get(name);
            int parked = pending == null ? 0 : pending.parkedCount();
            int active = pending == null ? 0 : pending.size() - parked;
            QueueMetrics.Status status = state.inactiveReason(spec) == null ? QueueMetrics.Status.ACTIVE : QueueMetrics.Status.PENDING;
            queues.add(new QueueMetrics.ClusterQueue(name, spec.cohort() == null ? "" : spec.cohort(), status,
                    active, parked + unplaced.getOrDefault(name, 0), resources(state, name)));
        }
        return new QueueMetrics(queues);
    }

    private static List<QueueMetrics.Resource> resources(ClusterState state, String queue) {
        if (!state.quota.hasClusterQueue(queue)) return List.of();
        Map<FlavorResource, Long> reserved = new HashMap<>();
        Map<FlavorResource, Long> admitted = new HashMap<>();
        for (WorkloadEntry entry : state.reservedByQueue.getOrDefault(queue, Set.of())) {
            if (entry.usage == null) continue;
            entry.usage.forEach((fr, amount) -> reserved.merge(fr, amount, Amounts::add));
            if (entry.isAdmitted()) entry.usage.forEach((fr, amount) -> admitted.merge(fr, amount, Amounts::add));
        }
        List<QueueMetrics.Resource> resources = new ArrayList<>();
        for (FlavorResource fr : state.quota.flavorResources(queue)) {
            resources.add(new QueueMetrics.Resource(fr.flavor(), fr.resource(), state.quota.nominal(queue, fr),
                    state.quota.borrowingLimit(queue, fr), state.quota.lendingLimit(queue, fr),
                    admitted.getOrDefault(fr, 0L), reserved.getOrDefault(fr, 0L)));
        }
        return resources;
    }
}
