package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads {@link QueueMetrics} from the controller's state; runs on its thread, on demand (a scrape). */
final class QueueMetricsReader {
    private QueueMetricsReader() {}

    static QueueMetrics read(SchedulerState state) {
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
            Set<WorkloadEntry> reserved = state.reservedByQueue.getOrDefault(name, Set.of());
            int admitted = 0;
            for (WorkloadEntry entry : reserved) if (entry.isAdmitted()) admitted++;
            double share = state.quota.hasClusterQueue(name) ? state.quota.weightedShare(name) : 0;
            queues.add(new QueueMetrics.ClusterQueue(name, spec.cohort() == null ? "" : spec.cohort(), status,
                    active, parked + unplaced.getOrDefault(name, 0), resources(state, name), reserved.size(), admitted, share));
        }
        List<QueueMetrics.Cohort> cohorts = new ArrayList<>();
        for (String cohort : new TreeSet<>(state.quota.cohortNames())) {
            cohorts.add(new QueueMetrics.Cohort(cohort, state.quota.cohortWeightedShare(cohort)));
        }
        return new QueueMetrics(queues, cohorts, localQueues(state));
    }

    private static List<QueueMetrics.Resource> resources(SchedulerState state, String queue) {
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

    /** Kueue's per-LocalQueue view: pending split as the ClusterQueue's, holders and their usage per flavor of the ClusterQueue. */
    private static List<QueueMetrics.LocalQueue> localQueues(SchedulerState state) {
        Set<WorkloadEntry> parked = new HashSet<>();
        for (PendingQueue queue : state.pending.values()) parked.addAll(queue.parkedEntries());
        parked.addAll(state.unplaced);
        List<QueueMetrics.LocalQueue> result = new ArrayList<>(state.localQueues.size());
        for (LocalQueueSpec spec : state.localQueues.values()) {
            int pendingActive = 0;
            int pendingInadmissible = 0;
            int reserving = 0;
            int admitted = 0;
            Map<FlavorResource, Long> reservation = new HashMap<>();
            Map<FlavorResource, Long> usage = new HashMap<>();
            for (WorkloadEntry entry : state.unfinishedByLocalQueue.getOrDefault(spec.key(), Set.of())) {
                    if (entry.holdsQuota()) {
                    reserving++;
                    entry.usage.forEach((fr, amount) -> reservation.merge(fr, amount, Amounts::add));
                    if (entry.isAdmitted()) {
                        admitted++;
                        entry.usage.forEach((fr, amount) -> usage.merge(fr, amount, Amounts::add));
                    }
                } else if (entry.active) {
                    if (parked.contains(entry)) pendingInadmissible++;
                    else pendingActive++;
                }
            }
            Condition active = LocalQueueActivity.of(state, spec, Instant.EPOCH);
            ClusterQueueSpec queue = state.clusterQueues.get(spec.clusterQueue());
            if (queue == null || state.inactiveReason(queue) != null) {
                pendingInadmissible += pendingActive;
                pendingActive = 0;
            }
            List<QueueMetrics.LocalResource> resources = new ArrayList<>();
            if (state.quota.hasClusterQueue(spec.clusterQueue())) {
                for (FlavorResource fr : state.quota.flavorResources(spec.clusterQueue())) {
                    resources.add(new QueueMetrics.LocalResource(fr.flavor(), fr.resource(),
                            reservation.getOrDefault(fr, 0L), usage.getOrDefault(fr, 0L)));
                }
            }
            result.add(new QueueMetrics.LocalQueue(spec.namespace(), spec.name(), pendingActive, pendingInadmissible,
                    reserving, admitted, active.status() ? "True" : "False", resources));
        }
        return result;
    }
}
