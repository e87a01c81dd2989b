package dev.berth.manager.core;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.scheduling.QuotaTree;
import dev.berth.protocol.Conditions.Reasons;
import dev.berth.protocol.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything the scheduler knows: the queue objects, the quota tree with the usage of every
 * workload holding quota, the pending queues, and the workloads. Confined to the controller's thread.
 */
final class SchedulerState {
    final Map<String, ResourceFlavor> flavors = new HashMap<>();
    final Map<String, ClusterQueueSpec> clusterQueues = new TreeMap<>();
    final Map<String, CohortSpec> cohorts = new HashMap<>();
    final Map<String, LocalQueueSpec> localQueues = new TreeMap<>();
    final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    final Map<String, Boolean> admissionChecks = new HashMap<>();
    /** The names of the Topology objects that exist. */
    final Set<String> topologies = new java.util.HashSet<>();
    final Map<WorkloadKey, WorkloadEntry> workloads = new HashMap<>();
    final Map<String, PendingQueue> pending = new HashMap<>();
    /**
     * The workloads of each LocalQueue that have not finished: what its status, usage and metrics count, and what
     * its stop policy evicts. Finished ones leave it, so a queue's status costs its live workloads, not the retained.
     */
    final Map<String, Set<WorkloadEntry>> unfinishedByLocalQueue = new HashMap<>();
    /** Pending workloads that cannot be queued: missing or inactive queue. */
    final Set<WorkloadEntry> unplaced = new LinkedHashSet<>();
    final Map<String, Set<WorkloadEntry>> reservedByQueue = new HashMap<>();
    /** The capacity generation of each cohort tree (by root); a holder per tree, so pending slots read it without a lookup. */
    private final Map<String, CohortGeneration> generationByRoot = new HashMap<>();
    /** The pending queues with what a cycle reads of each; built after a rebuild, in the pending map's order. */
    private List<PendingSlot> pendingSlots;
    /** The workloads holding quota in victim order, per queue and per cohort tree. */
    final HolderIndex holders = new HolderIndex();
    /** Admission fair sharing: each LocalQueue's decayed consumed resources. */
    final LocalQueueUsage localQueueUsage;
    /** Counts scheduling passes; a workload that reserved quota in the current one has {@code reservedInPass == pass}. */
    long pass;
    QuotaTree quota = QuotaTree.build(List.of(), List.of());
    private long generationCounter;

    SchedulerState() {
        this(null);
    }

    /** admissionFairSharing null: off. */
    SchedulerState(AdmissionFairSharing admissionFairSharing) {
        this.localQueueUsage = new LocalQueueUsage(this, admissionFairSharing);
    }

    /** Grows whenever capacity in one cohort tree grows; parked workloads of the tree are looked at again then. */
    static final class CohortGeneration {
        long value;
    }

    /** A pending queue, its spec and its tree's generation: what each cycle reads of every queue, without a map lookup. */
    record PendingSlot(ClusterQueueSpec spec, PendingQueue queue, CohortGeneration generation) {
    }

    /** Capacity in the queue's cohort tree grew: parked workloads there deserve another look. */
    void capacityFreed(String clusterQueue) {
        if (clusterQueue == null || !quota.hasClusterQueue(clusterQueue)) return;
        generationOf(quota.rootOf(clusterQueue)).value = ++generationCounter;
    }

    private CohortGeneration generationOf(String root) {
        return generationByRoot.computeIfAbsent(root, r -> new CohortGeneration());
    }

    /** Every pending queue with its spec and generation, in the order of {@link #pending}. */
    List<PendingSlot> pendingSlots() {
        if (pendingSlots == null) {
            List<PendingSlot> slots = new ArrayList<>(pending.size());
            for (Map.Entry<String, PendingQueue> queue : pending.entrySet()) {
                slots.add(new PendingSlot(clusterQueues.get(queue.getKey()), queue.getValue(), generationOf(quota.rootOf(queue.getKey()))));
            }
            pendingSlots = List.copyOf(slots);
        }
        return pendingSlots;
    }

    /** The pending queues were replaced (a rebuild): the slots are built again when next needed. */
    void pendingQueuesReplaced() {
        pendingSlots = null;
    }

    /** The entry now holds quota in the queue (its reservation time and usage are set): both holder views learn it. */
    void reserved(WorkloadEntry entry, String clusterQueue) {
        reservedByQueue.computeIfAbsent(clusterQueue, q -> new LinkedHashSet<>()).add(entry);
        holders.reserved(entry, clusterQueue, quota);
    }

    /**
     * The entry is evicted but keeps its quota while its remote copy stops: it is re-indexed, as
     * preemption takes such workloads first (Kueue's candidate ordering).
     */
    void evictionPending(WorkloadEntry entry, PendingEviction pending) {
        String clusterQueue = entry.admission.clusterQueue();
        holders.released(entry, clusterQueue, quota);
        entry.pendingEviction = pending;
        holders.reserved(entry, clusterQueue, quota);
    }

    /** The entry no longer holds quota in the queue. */
    void released(WorkloadEntry entry, String clusterQueue) {
        Set<WorkloadEntry> reserved = reservedByQueue.get(clusterQueue);
        if (reserved != null) reserved.remove(entry);
        holders.released(entry, clusterQueue, quota);
    }

    void hold(WorkloadEntry entry, String clusterQueue, Map<dev.berth.manager.model.FlavorResource, Long> usage) {
        releaseHold(entry);
        quota.addUsage(clusterQueue, usage);
        entry.preemptionHold = usage;
        entry.preemptionHoldQueue = clusterQueue;
    }

    /** Gives back the quota held for a preemptor; true when it held some. */
    boolean releaseHold(WorkloadEntry entry) {
        if (entry.preemptionHold == null) return false;
        if (quota.hasClusterQueue(entry.preemptionHoldQueue)) quota.removeUsage(entry.preemptionHoldQueue, entry.preemptionHold);
        entry.preemptionHold = null;
        entry.preemptionHoldQueue = null;
        return true;
    }

    void rebuildQuota() {
        for (WorkloadEntry entry : workloads.values()) {
            entry.preemptionHold = null;
            entry.preemptionHoldQueue = null;
        }
        quota = QuotaTree.build(clusterQueues.values(), cohorts.values());
        holders.treesChanged();
        for (Map.Entry<String, Set<WorkloadEntry>> reserved : reservedByQueue.entrySet()) {
            if (!quota.hasClusterQueue(reserved.getKey())) continue;
            for (WorkloadEntry entry : reserved.getValue()) quota.addUsage(reserved.getKey(), entry.usage);
        }
        generationByRoot.clear();
        pendingSlots = null;
        generationCounter++;
        for (String queue : clusterQueues.keySet()) generationOf(quota.rootOf(queue)).value = generationCounter;
    }

    Map<String, String> labelsOf(String namespace) {
        Map<String, String> labels = namespaceLabels.get(namespace);
        return labels != null ? labels : Map.of(Labels.NAMESPACE_NAME, namespace);
    }

    /** Why the ClusterQueue cannot admit, as a (reason, message) pair, or null when it is active. */
    String[] inactiveReason(ClusterQueueSpec queue) {
        if (queue.terminating()) return new String[] {Reasons.TERMINATING, "Can't admit new workloads; clusterQueue is terminating"};
        if (queue.stopPolicy().stopsAdmission()) return new String[] {Reasons.STOPPED, "Can't admit new workloads: is stopped"};
        // Kueue's inactiveReason: every missing or inactive reference is named, the first reason wins.
        List<String> reasons = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        java.util.Set<String> missingFlavors = new java.util.LinkedHashSet<>();
        for (ResourceGroup group : queue.resourceGroups()) {
            for (FlavorQuotas flavor : group.flavors()) {
                if (!flavors.containsKey(flavor.flavor())) missingFlavors.add(flavor.flavor());
            }
        }
        if (!missingFlavors.isEmpty()) {
            reasons.add(Reasons.FLAVOR_NOT_FOUND);
            messages.add("references missing ResourceFlavor(s): " + String.join(",", missingFlavors));
        }
        List<String> missingChecks = new ArrayList<>();
        List<String> inactiveChecks = new ArrayList<>();
        for (AdmissionCheckRule rule : queue.admissionChecks()) {
            Boolean active = admissionChecks.get(rule.name());
            if (active == null) missingChecks.add(rule.name());
            else if (!active) inactiveChecks.add(rule.name());
        }
        if (!missingChecks.isEmpty()) {
            reasons.add(Reasons.ADMISSION_CHECK_NOT_FOUND);
            messages.add("references missing AdmissionCheck(s): " + String.join(",", missingChecks));
        }
        if (!inactiveChecks.isEmpty()) {
            reasons.add(Reasons.ADMISSION_CHECK_INACTIVE);
            messages.add("references inactive AdmissionCheck(s): " + String.join(",", inactiveChecks));
        }
        // Kueue (pkg/cache/scheduler): a TAS flavor whose Topology does not exist makes the queue inactive
        java.util.Set<String> tasFlavors = new java.util.LinkedHashSet<>();
        for (ResourceGroup group : queue.resourceGroups()) {
            for (FlavorQuotas flavor : group.flavors()) {
                ResourceFlavor known = flavors.get(flavor.flavor());
                if (known != null && known.topologyName() != null && !topologies.contains(known.topologyName()) && tasFlavors.add(known.name())) {
                    reasons.add(Reasons.TOPOLOGY_NOT_FOUND);
                    messages.add("there is no Topology \"" + known.topologyName() + "\" for TAS flavor \"" + known.name() + "\"");
                }
            }
        }
        if (!reasons.isEmpty()) return new String[] {reasons.get(0), "Can't admit new workloads: " + String.join(", ", messages) + "."};
        if (quota.inCohortCycle(queue.name())) return new String[] {"CohortCycle", "Can't admit new workloads: cohort " + queue.cohort() + " is in a cycle"};
        return null;
    }
}
