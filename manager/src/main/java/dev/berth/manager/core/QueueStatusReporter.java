package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
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

/** Computes ClusterQueue and LocalQueue status and reports the ones that changed. */
final class QueueStatusReporter {
    private final ClusterState state;
    private final StatusSink sink;
    private final Set<String> dirtyClusterQueues = new HashSet<>();
    private final Set<String> dirtyLocalQueues = new HashSet<>();
    private final Map<String, QueueStatus> lastClusterQueue = new HashMap<>();
    private final Map<String, QueueStatus> lastLocalQueue = new HashMap<>();

    QueueStatusReporter(ClusterState state, StatusSink sink) {
        this.state = state;
        this.sink = sink;
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
        dirtyClusterQueues.clear();
        dirtyLocalQueues.clear();
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
        return new QueueStatus(pending, reserved.size(), admitted,
                flavorUsage(name, reservation), flavorUsage(name, withZeros(name, admittedUsage)), List.of(active));
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

    QueueStatus localQueueStatus(LocalQueueSpec spec, Instant now) {
        int pending = 0;
        int reserving = 0;
        int admitted = 0;
        Map<FlavorResource, Long> reservation = new LinkedHashMap<>();
        Map<FlavorResource, Long> usage = new LinkedHashMap<>();
        for (WorkloadEntry entry : state.byLocalQueue.getOrDefault(spec.key(), Set.of())) {
            if (entry.finished) continue;
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
        ClusterQueueSpec queue = state.clusterQueues.get(spec.clusterQueue());
        boolean stopped = spec.stopPolicy().stopsAdmission();
        Condition active;
        if (queue == null) {
            active = new Condition(Conditions.ACTIVE, false, Reasons.CLUSTER_QUEUE_DOES_NOT_EXIST, "Can't submit new workloads to clusterQueue", now);
        } else if (stopped) {
            active = new Condition(Conditions.ACTIVE, false, Reasons.STOPPED, "LocalQueue is stopped", now);
        } else {
            active = new Condition(Conditions.ACTIVE, true, Reasons.READY, "Can submit new workloads to localQueue", now);
        }
        return new QueueStatus(pending, reserving, admitted, plain(reservation), plain(usage), List.of(active),
                state.localQueueUsage.statusOf(spec.key()));
    }

    private static List<FlavorUsage> plain(Map<FlavorResource, Long> usage) {
        Map<String, List<FlavorUsage.ResourceUsage>> byFlavor = new LinkedHashMap<>();
        usage.forEach((fr, amount) -> byFlavor.computeIfAbsent(fr.flavor(), f -> new ArrayList<>())
                .add(new FlavorUsage.ResourceUsage(fr.resource(), amount, 0)));
        List<FlavorUsage> result = new ArrayList<>();
        byFlavor.forEach((flavor, resources) -> result.add(new FlavorUsage(flavor, resources)));
        return result;
    }

    private static boolean sameIgnoringTime(QueueStatus a, QueueStatus b) {
        if (b == null) return false;
        if (a.pendingWorkloads() != b.pendingWorkloads() || a.reservingWorkloads() != b.reservingWorkloads()
                || a.admittedWorkloads() != b.admittedWorkloads()
                || !a.flavorsReservation().equals(b.flavorsReservation()) || !a.flavorsUsage().equals(b.flavorsUsage())
                || !java.util.Objects.equals(a.admissionFairSharing(), b.admissionFairSharing())) {
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
