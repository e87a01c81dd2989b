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
final class ClusterState {
    final Map<String, ResourceFlavor> flavors = new HashMap<>();
    final Map<String, ClusterQueueSpec> clusterQueues = new TreeMap<>();
    final Map<String, CohortSpec> cohorts = new HashMap<>();
    final Map<String, LocalQueueSpec> localQueues = new TreeMap<>();
    final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    final Map<String, Boolean> admissionChecks = new HashMap<>();
    final Map<WorkloadKey, WorkloadEntry> workloads = new HashMap<>();
    final Map<String, PendingQueue> pending = new HashMap<>();
    final Map<String, Set<WorkloadEntry>> byLocalQueue = new HashMap<>();
    /** Pending workloads that cannot be queued: missing or inactive queue. */
    final Set<WorkloadEntry> unplaced = new LinkedHashSet<>();
    final Map<String, Set<WorkloadEntry>> reservedByQueue = new HashMap<>();
    final Map<String, Long> generationByRoot = new HashMap<>();
    /** Workloads that reserved quota during the current call to schedule(). */
    final Set<WorkloadKey> admittedThisPass = new java.util.HashSet<>();
    QuotaTree quota = QuotaTree.build(List.of(), List.of());
    private long generationCounter;

    long generation(String clusterQueue) {
        return generationByRoot.getOrDefault(quota.rootOf(clusterQueue), 0L);
    }

    /** Capacity in the queue's cohort tree grew: parked workloads there deserve another look. */
    void capacityFreed(String clusterQueue) {
        if (clusterQueue == null || !quota.hasClusterQueue(clusterQueue)) return;
        generationByRoot.put(quota.rootOf(clusterQueue), ++generationCounter);
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
        for (Map.Entry<String, Set<WorkloadEntry>> reserved : reservedByQueue.entrySet()) {
            if (!quota.hasClusterQueue(reserved.getKey())) continue;
            for (WorkloadEntry entry : reserved.getValue()) quota.addUsage(reserved.getKey(), entry.usage);
        }
        generationByRoot.clear();
        generationCounter++;
        for (String queue : clusterQueues.keySet()) generationByRoot.put(quota.rootOf(queue), generationCounter);
    }

    Map<String, String> labelsOf(String namespace) {
        Map<String, String> labels = namespaceLabels.get(namespace);
        return labels != null ? labels : Map.of(Labels.NAMESPACE_NAME, namespace);
    }

    /** Why the ClusterQueue cannot admit, as a (reason, message) pair, or null when it is active. */
    String[] inactiveReason(ClusterQueueSpec queue) {
        if (queue.stopPolicy().stopsAdmission()) return new String[] {Reasons.STOPPED, "Can't admit new workloads: is stopped"};
        List<String> missingFlavors = new ArrayList<>();
        for (ResourceGroup group : queue.resourceGroups()) {
            for (FlavorQuotas flavor : group.flavors()) {
                if (!flavors.containsKey(flavor.flavor())) missingFlavors.add(flavor.flavor());
            }
        }
        if (!missingFlavors.isEmpty()) {
            return new String[] {Reasons.FLAVOR_NOT_FOUND, "Can't admit new workloads: references missing ResourceFlavor(s): " + missingFlavors};
        }
        List<String> missingChecks = new ArrayList<>();
        for (AdmissionCheckRule rule : queue.admissionChecks()) {
            if (!Boolean.TRUE.equals(admissionChecks.get(rule.name()))) missingChecks.add(rule.name());
        }
        if (!missingChecks.isEmpty()) {
            return new String[] {Reasons.ADMISSION_CHECK_NOT_FOUND,
                    "Can't admit new workloads: references missing or inactive AdmissionCheck(s): " + missingChecks};
        }
        if (quota.inCohortCycle(queue.name())) return new String[] {"CohortCycle", "Can't admit new workloads: cohort " + queue.cohort() + " is in a cycle"};
        return null;
    }
}
