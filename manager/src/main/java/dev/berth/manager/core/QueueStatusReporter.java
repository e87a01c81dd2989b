package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes ClusterQueue, LocalQueue and Cohort status and reports the ones that changed. With fair
 * sharing on, ClusterQueues and Cohorts carry Kueue's {@code fairSharing.weightedShare}; a Cohort's
 * share depends on its whole subtree, so every Cohort is looked at when any ClusterQueue changed.
 */
final class QueueStatusReporter {
    private final SchedulerState state;
    private final StatusSink sink;
    private final boolean fairSharing;
    private final Set<String> dirtyClusterQueues = new HashSet<>();
    private final Set<String> dirtyLocalQueues = new HashSet<>();
    private final Map<String, QueueStatus> lastClusterQueue = new HashMap<>();
    private final Map<String, QueueStatus> lastLocalQueue = new HashMap<>();
    private final Map<String, CohortStatus> lastCohort = new HashMap<>();

    QueueStatusReporter(SchedulerState state, StatusSink sink) {
        this(state, sink, false);
    }

    QueueStatusReporter(SchedulerState state, StatusSink sink, boolean fairSharing) {
        this.state = state;
        this.sink = sink;
        this.fairSharing = fairSharing;
    }

    void touched(WorkloadEntry entry) {
        if (entry.clusterQueue != null) dirtyClusterQueues.add(entry.clusterQueue);
        if (entry.admission != null) dirtyClusterQueues.add(entry.admission.clusterQueue());
        dirtyLocalQueues.add(entry.localQueueKey);
    }

    void touchedLocalQueues(java.util.Collection<String> localQueueKeys) {
        dirtyLocalQueues.addAll(localQueueKeys);
    }

    void touchedAll() {
        dirtyClusterQueues.addAll(state.clusterQueues.keySet());
        dirtyLocalQueues.addAll(state.localQueues.keySet());
    }

    void forget(String clusterQueue, String localQueueKey) {
        if (clusterQueue != null) lastClusterQueue.remove(clusterQueue);
        if (localQueueKey != null) lastLocalQueue.remove(localQueueKey);
    }

    void flush(Instant now) {
        for (String name : dirtyClusterQueues) {
            ClusterQueueSpec spec = state.clusterQueues.get(name);
            if (spec == null) continue;
            QueueStatus status = clusterQueueStatus(spec, now);
            if (!sameIgnoringTime(status, lastClusterQueue.get(name))) {
                sink.clusterQueueChanged(name, status);
                lastClusterQueue.put(name, status);
            }
        }
        for (String key : dirtyLocalQueues) {
            LocalQueueSpec spec = state.localQueues.get(key);
            if (spec == null) continue;
            QueueStatus status = localQueueStatus(spec, now);
            if (!sameIgnoringTime(status, lastLocalQueue.get(key))) {
                sink.localQueueChanged(spec.namespace(), spec.name(), status);
                lastLocalQueue.put(key, status);
            }
        }
        if (!dirtyClusterQueues.isEmpty()) flushCohorts();
        dirtyClusterQueues.clear();
        dirtyLocalQueues.clear();
    }

    private void flushCohorts() {
        lastCohort.keySet().retainAll(state.cohorts.keySet());
        for (String name : state.cohorts.keySet()) {
            CohortStatus status = cohortStatus(name);
            if (!status.equals(lastCohort.get(name))) {
                sink.cohortChanged(name, status);
                lastCohort.put(name, status);
            }
        }
    }

    /** A Cohort's status as it stands (its fair-sharing share while fair sharing is on). */
    private CohortStatus cohortStatus(String name) {
        return new CohortStatus(fairSharing ? QueueStatus.roundedWeightedShare(state.quota.cohortWeightedShare(name)) : null);
    }

    QueueStatus clusterQueueStatus(ClusterQueueSpec spec, Instant now) {
        String name = spec.name();
        PendingQueue queue = state.pending.get(name);
        int pending = queue == null ? 0 : queue.size();
        for (WorkloadEntry entry : state.unplaced) if (name.equals(entry.clusterQueue)) pending++;
        Set<WorkloadEntry> reserved = state.reservedByQueue.getOrDefault(name, Set.of());
        int admitted = 0;
        Map<FlavorResource, Long> admittedUsage = new LinkedHashMap<>();
        for (WorkloadEntry entry : reserved) {
            if (entry.isAdmitted()) {
                admitted++;
                entry.usage.forEach((fr, amount) -> admittedUsage.merge(fr, amount, Amounts::add));
            }
        }
        Map<FlavorResource, Long> reservation = new LinkedHashMap<>();
        for (FlavorResource fr : state.quota.flavorResources(name)) reservation.put(fr, state.quota.usage(name, fr));
        String[] inactive = state.inactiveReason(spec);
        Condition active = inactive == null
                ? new Condition(Conditions.ACTIVE, true, Reasons.READY, "Can admit new workloads", now)
                : new Condition(Conditions.ACTIVE, false, inactive[0], inactive[1], now);
        Long share = fairSharing && state.quota.hasClusterQueue(name)
                ? QueueStatus.roundedWeightedShare(state.quota.weightedShare(name)) : null;
        return new QueueStatus(pending, reserved.size(), admitted,
                flavorUsage(name, reservation), flavorUsage(name, withZeros(name, admittedUsage)), List.of(active), null, share);
    }

    private Map<FlavorResource, Long> withZeros(String queue, Map<FlavorResource, Long> usage) {
        Map<FlavorResource, Long> all = new LinkedHashMap<>();
        for (FlavorResource fr : state.quota.flavorResources(queue)) all.put(fr, usage.getOrDefault(fr, 0L));
        return all;
    }

    private List<FlavorUsage> flavorUsage(String queue, Map<FlavorResource, Long> usage) {
        Map<String, List<FlavorUsage.ResourceUsage>> byFlavor = new LinkedHashMap<>();
        for (Map.Entry<FlavorResource, Long> used : usage.entrySet()) {
            long borrowed = Math.max(0, used.getValue() - state.quota.nominal(queue, used.getKey()));
            byFlavor.computeIfAbsent(used.getKey().flavor(), f -> new ArrayList<>())
                    .add(new FlavorUsage.ResourceUsage(used.getKey().resource(), used.getValue(), borrowed));
        }
        List<FlavorUsage> result = new ArrayList<>();
        byFlavor.forEach((flavor, resources) -> result.add(new FlavorUsage(flavor, resources)));
        return result;
    }

    /**
     * Kueue's LocalQueue status: pending workloads (none while the LocalQueue is stopped), the
     * workloads holding quota and the admitted ones, and reservation and usage for every flavor and
     * covered resource of its ClusterQueue in resource-group order (zeros included, resources sorted
     * by name, nothing when the ClusterQueue is missing).
     */
    QueueStatus localQueueStatus(LocalQueueSpec spec, Instant now) {
        int pending = 0;
        int reserving = 0;
        int admitted = 0;
        Map<FlavorResource, Long> reservation = new LinkedHashMap<>();
        Map<FlavorResource, Long> usage = new LinkedHashMap<>();
        for (WorkloadEntry entry : state.unfinishedByLocalQueue.getOrDefault(spec.key(), Set.of())) {
            if (entry.holdsQuota()) {
                reserving++;
                entry.usage.forEach((fr, amount) -> reservation.merge(fr, amount, Amounts::add));
                if (entry.isAdmitted()) {
                    admitted++;
                    entry.usage.forEach((fr, amount) -> usage.merge(fr, amount, Amounts::add));
                }
            } else if (entry.active) {
                pending++;
            }
        }
        if (spec.stopPolicy().stopsAdmission()) pending = 0;
        ClusterQueueSpec queue = state.clusterQueues.get(spec.clusterQueue());
        Condition active = LocalQueueActivity.of(state, spec, now);
        return new QueueStatus(pending, reserving, admitted, perFlavorOf(queue, reservation), perFlavorOf(queue, usage), List.of(active),
                state.localQueueUsage.statusOf(spec.key()), null);
    }

    private static List<FlavorUsage> perFlavorOf(ClusterQueueSpec queue, Map<FlavorResource, Long> usage) {
        List<FlavorUsage> result = new ArrayList<>();
        if (queue == null) return result;
        for (ResourceGroup group : queue.resourceGroups()) {
            List<String> resources = new ArrayList<>(group.coveredResources());
            java.util.Collections.sort(resources);
            for (FlavorQuotas flavor : group.flavors()) {
                List<FlavorUsage.ResourceUsage> used = new ArrayList<>();
                for (String resource : resources) {
                    used.add(new FlavorUsage.ResourceUsage(resource, usage.getOrDefault(new FlavorResource(flavor.flavor(), resource), 0L), 0));
                }
                result.add(new FlavorUsage(flavor.flavor(), used));
            }
        }
        return result;
    }

    private static boolean sameIgnoringTime(QueueStatus a, QueueStatus b) {
        if (b == null) return false;
        if (a.pendingWorkloads() != b.pendingWorkloads() || a.reservingWorkloads() != b.reservingWorkloads()
                || a.admittedWorkloads() != b.admittedWorkloads()
                || !a.flavorsReservation().equals(b.flavorsReservation()) || !a.flavorsUsage().equals(b.flavorsUsage())
                || !java.util.Objects.equals(a.admissionFairSharing(), b.admissionFairSharing())
                || !java.util.Objects.equals(a.weightedShare(), b.weightedShare())) {
            return false;
        }
        if (a.conditions().size() != b.conditions().size()) return false;
        for (int i = 0; i < a.conditions().size(); i++) {
            Condition x = a.conditions().get(i);
            Condition y = b.conditions().get(i);
            if (x.status() != y.status() || !x.reason().equals(y.reason()) || !x.message().equals(y.message())) return false;
        }
        return true;
    }
}
