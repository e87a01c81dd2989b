package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Read-only views of the queues and quota for explain, visibility, metrics and tests. Nothing here
 * changes the state it reads; it runs on the controller's thread like everything else.
 */
final class AdmissionReadModel {
    private final SchedulerState state;
    private final SchedulerOptions options;
    private final QueueStatusReporter queueStatus;
    private final Clock clock;

    AdmissionReadModel(SchedulerState state, SchedulerOptions options, QueueStatusReporter queueStatus, Clock clock) {
        this.state = state;
        this.options = options;
        this.queueStatus = queueStatus;
        this.clock = clock;
    }

    WorkloadStatus statusOf(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.get(key);
        return entry == null ? null : entry.status;
    }

    List<WorkloadKey> pendingIn(String clusterQueue) {
        PendingQueue queue = state.pending.get(clusterQueue);
        List<WorkloadKey> keys = new ArrayList<>();
        if (queue != null) {
            for (WorkloadEntry entry : queue.inOrder(state.localQueueUsage.orderingFor(state.clusterQueues.get(clusterQueue)))) {
                keys.add(entry.key());
            }
        }
        for (WorkloadEntry entry : state.unplaced) if (clusterQueue.equals(entry.clusterQueue)) keys.add(entry.key());
        return keys;
    }

    Map<String, Long> usageOf(String clusterQueue) {
        Map<String, Long> usage = new HashMap<>();
        if (!state.quota.hasClusterQueue(clusterQueue)) return usage;
        for (var fr : state.quota.flavorResources(clusterQueue)) usage.put(fr.toString(), state.quota.usage(clusterQueue, fr));
        return usage;
    }

    QueueStatus clusterQueueStatus(String name) {
        ClusterQueueSpec spec = state.clusterQueues.get(name);
        return spec == null ? null : queueStatus.clusterQueueStatus(spec, clock.instant());
    }

    QueueMetrics queueMetrics() {
        return QueueMetricsReader.read(state);
    }

    int workloadCount() {
        return state.workloads.size();
    }

    Optional<AdmissionDiagnosis> diagnose(WorkloadKey key) {
        return new AdmissionDiagnostician(state, options).diagnose(key);
    }

    /** What would admit the workload now, each change checked by a re-run; NONE when it is not pending. */
    AdmissionAdvice advise(WorkloadKey key, Map<String, Integer> priorityClasses) {
        WorkloadEntry entry = state.workloads.get(key);
        return entry == null ? AdmissionAdvice.NONE : new AdmissionAdvisor(state, options).advise(entry, priorityClasses);
    }

    AdmissionAdvice aheadOnly(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.get(key);
        return entry == null || entry.holdsQuota() ? AdmissionAdvice.NONE : new AdmissionAdvice(List.of(), null, WorkloadsAhead.of(state, entry));
    }

    Optional<List<PendingWorkloadView>> pendingWorkloads(String clusterQueue) {
        if (!state.clusterQueues.containsKey(clusterQueue)) return Optional.empty();
        PendingQueue queue = state.pending.get(clusterQueue);
        List<PendingWorkloadView> views = new ArrayList<>();
        if (queue != null) {
            for (WorkloadEntry entry : queue.inOrder(state.localQueueUsage.orderingFor(state.clusterQueues.get(clusterQueue)))) {
                Condition reserved = entry.status.condition(Conditions.QUOTA_RESERVED);
                views.add(new PendingWorkloadView(entry.key(), entry.request.queueName(), entry.request.priority(),
                        entry.request.creationMillis(), reserved == null || reserved.status() ? null : reserved.message()));
            }
        }
        return Optional.of(views);
    }

    Optional<String> clusterQueueOf(String namespace, String localQueue) {
        LocalQueueSpec spec = state.localQueues.get(namespace + "/" + localQueue);
        return spec == null ? Optional.empty() : Optional.of(spec.clusterQueue());
    }

    QuotaSnapshot quotaSnapshot() {
        Map<String, QuotaSnapshot.CohortNode> cohorts = new TreeMap<>();
        for (CohortSpec cohort : state.cohorts.values()) {
            cohorts.put(cohort.name(), new QuotaSnapshot.CohortNode(cohort.name(), cohort.parent(), quotasOf(cohort.resourceGroups())));
        }
        List<QuotaSnapshot.QueueQuota> queues = new ArrayList<>();
        for (ClusterQueueSpec spec : state.clusterQueues.values()) {
            if (spec.cohort() != null) cohorts.putIfAbsent(spec.cohort(), new QuotaSnapshot.CohortNode(spec.cohort(), null, Map.of()));
            Map<FlavorResource, Long> usage = new HashMap<>();
            if (state.quota.hasClusterQueue(spec.name())) {
                for (var fr : state.quota.flavorResources(spec.name())) usage.put(fr, state.quota.usage(spec.name(), fr));
            }
            PendingQueue pending = state.pending.get(spec.name());
            queues.add(new QuotaSnapshot.QueueQuota(spec.name(), spec.cohort(), quotasOf(spec.resourceGroups()), usage,
                    pending == null ? 0 : pending.size()));
        }
        for (QuotaSnapshot.CohortNode cohort : List.copyOf(cohorts.values())) {
            if (cohort.parent() != null) cohorts.putIfAbsent(cohort.parent(), new QuotaSnapshot.CohortNode(cohort.parent(), null, Map.of()));
        }
        return new QuotaSnapshot(List.copyOf(cohorts.values()), queues);
    }

    private static Map<FlavorResource, ResourceQuota> quotasOf(List<ResourceGroup> groups) {
        Map<FlavorResource, ResourceQuota> quotas = new LinkedHashMap<>();
        for (var group : groups) {
            for (var flavor : group.flavors()) {
                for (var quota : flavor.resources()) quotas.put(new FlavorResource(flavor.flavor(), quota.resource()), quota);
            }
        }
        return quotas;
    }
}
