package dev.berth.manager.core;

import dev.berth.manager.core.AdmissionDiagnosis.FlavorTrial;
import dev.berth.manager.core.AdmissionDiagnosis.PodSetTrial;
import dev.berth.manager.core.AdmissionDiagnosis.Position;
import dev.berth.manager.core.AdmissionDiagnosis.Queues;
import dev.berth.manager.core.AdmissionDiagnosis.ResourceTrial;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.scheduling.AdmittedWorkload;
import dev.berth.manager.scheduling.FlavorAssigner;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.FlavorEligibility;
import dev.berth.manager.scheduling.PodSetFlavors;
import dev.berth.manager.scheduling.PreemptionPlanner;
import dev.berth.protocol.Conditions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds an {@link AdmissionDiagnosis} by running the scheduler's own {@link FlavorAssigner} and
 * preemption planning in a dry mode over the current state. Reads only: the assigner is pure and
 * the planner leaves the quota tree as it found it.
 */
final class AdmissionDiagnostician {
    private final SchedulerState state;
    private final SchedulerOptions options;

    AdmissionDiagnostician(SchedulerState state, SchedulerOptions options) {
        this.state = state;
        this.options = options;
    }

    Optional<AdmissionDiagnosis> diagnose(WorkloadKey key) {
        WorkloadEntry entry = state.workloads.get(key);
        if (entry == null) return Optional.empty();
        Queues queues = queues(entry);
        Condition reserved = entry.status.condition(Conditions.QUOTA_RESERVED);
        String pendingMessage = reserved == null || reserved.status() ? null : reserved.message();
        List<PodSetTrial> podSets = List.of();
        AdmissionDiagnosis.Preemption preemption = null;
        boolean evaluate = entry.active && !entry.finished && !entry.holdsQuota() && queues.clusterQueueExists()
                && queues.inactiveReason() == null && queues.namespaceSelected()
                && state.quota.hasClusterQueue(queues.clusterQueue());
        if (evaluate) {
            ClusterQueueSpec spec = state.clusterQueues.get(queues.clusterQueue());
            List<AdmittedWorkload> inTree = admittedInTree(spec);
            PlannedPreemptionOracle oracle = new PlannedPreemptionOracle(new PreemptionPlanner(state.quota, options), state.quota, spec, entry,
                    inTree.stream().filter(w -> w.clusterQueue().equals(spec.name())).toList(), () -> inTree);
            FlavorAssignment full = new FlavorAssigner(spec, Collections.unmodifiableMap(state.flavors), state.quota,
                    options.fairSharing(), oracle).avoiding(entry.avoidedFlavors).assign(entry.request);
            podSets = trials(spec, entry, full);
            preemption = new PreemptionDiagnosis(state, options).diagnose(spec, entry, full, inTree);
        }
        return Optional.of(new AdmissionDiagnosis(key, entry.request, entry.active, entry.finished, entry.holdsQuota(),
                entry.isAdmitted(), queues, position(entry), pendingMessage, podSets, preemption, entry.status.admissionChecks()));
    }

    private Queues queues(WorkloadEntry entry) {
        LocalQueueSpec local = state.localQueues.get(entry.localQueueKey);
        String clusterQueueName = local != null ? local.clusterQueue()
                : entry.admission != null ? entry.admission.clusterQueue() : null;
        ClusterQueueSpec queue = clusterQueueName == null ? null : state.clusterQueues.get(clusterQueueName);
        String[] inactive = queue == null ? null : state.inactiveReason(queue);
        boolean selected = queue != null && queue.namespaceSelector() != null
                && queue.namespaceSelector().matches(state.labelsOf(entry.key().namespace()));
        return new Queues(entry.request.queueName(), local != null, local == null ? null : local.stopPolicy(),
                clusterQueueName, queue != null, queue == null ? null : queue.stopPolicy(),
                inactive == null ? null : inactive[0], inactive == null ? null : inactive[1], selected,
                queue == null ? null : queue.cohort(), queue == null ? null : queue.queueingStrategy());
    }

    private Position position(WorkloadEntry entry) {
        PendingQueue queue = entry.clusterQueue == null ? null : state.pending.get(entry.clusterQueue);
        if (queue == null || entry.holdsQuota()) return null;
        List<WorkloadEntry> ordered = queue.inOrder(state.localQueueUsage.orderingFor(state.clusterQueues.get(entry.clusterQueue)));
        int inLocal = 0;
        for (int i = 0; i < ordered.size(); i++) {
            WorkloadEntry other = ordered.get(i);
            if (other == entry) return new Position(i, inLocal, ordered.size());
            if (other.localQueueKey.equals(entry.localQueueKey)) inLocal++;
        }
        return null;
    }

    private List<PodSetTrial> trials(ClusterQueueSpec spec, WorkloadEntry entry, FlavorAssignment full) {
        List<PodSetTrial> trials = new ArrayList<>();
        for (int i = 0; i < full.podSets().size(); i++) {
            PodSetFlavors assigned = full.podSets().get(i);
            PodSetRequest request = entry.request.podSets().get(i);
            List<FlavorTrial> flavors = new ArrayList<>();
            List<ResourceGroup> groups = new ArrayList<>();
            for (String resource : assigned.resourceUsage().keySet()) {
                ResourceGroup group = spec.groupFor(resource);
                if (group != null && !groups.contains(group)) groups.add(group);
            }
            for (ResourceGroup group : groups) {
                for (FlavorQuotas flavorQuotas : group.flavors()) {
                    FlavorTrial trial = flavorTrial(spec, group, flavorQuotas, request, assigned);
                    // the flavor assigner skipped it: dispatch found no connected worker cluster offers it
                    if (trial.ineligible() == null && entry.avoidedFlavors.contains(trial.flavor())) {
                        trial = new FlavorTrial(trial.flavor(), FlavorAssigner.skippedAsUnserved(trial.flavor()), trial.resources());
                    }
                    flavors.add(trial);
                }
            }
            trials.add(new PodSetTrial(assigned.name(), assigned.count(), assigned.mode(), assigned.flavors(),
                    assigned.reasons(), flavors));
        }
        return trials;
    }

    private FlavorTrial flavorTrial(ClusterQueueSpec spec, ResourceGroup group, FlavorQuotas flavorQuotas,
                                    PodSetRequest request, PodSetFlavors assigned) {
        ResourceFlavor flavor = state.flavors.get(flavorQuotas.flavor());
        String ineligible = flavor == null ? "flavor " + flavorQuotas.flavor() + " not found"
                : FlavorEligibility.reasonIneligible(flavor, request);
        List<ResourceTrial> resources = new ArrayList<>();
        for (Map.Entry<String, Long> needed : assigned.resourceUsage().entrySet()) {
            if (!group.covers(needed.getKey())) continue;
            FlavorResource fr = new FlavorResource(flavorQuotas.flavor(), needed.getKey());
            String queue = spec.name();
            resources.add(new ResourceTrial(needed.getKey(), needed.getValue(), state.quota.nominal(queue, fr),
                    state.quota.usage(queue, fr), state.quota.available(queue, fr), state.quota.potentialAvailable(queue, fr),
                    state.quota.borrowingLimit(queue, fr), spec.cohort()));
        }
        return new FlavorTrial(flavorQuotas.flavor(), ineligible, resources);
    }

    /** Every workload holding quota in the queue's cohort tree (or the queue alone), as the planner sees them. */
    private List<AdmittedWorkload> admittedInTree(ClusterQueueSpec queue) {
        List<AdmittedWorkload> admitted = new ArrayList<>();
        List<String> queues = state.quota.hasCohort(queue.name()) ? state.quota.clusterQueuesInTree(queue.name()) : List.of(queue.name());
        for (String name : queues) {
            for (WorkloadEntry holder : state.reservedByQueue.getOrDefault(name, java.util.Set.of())) {
                admitted.add(new AdmittedWorkload(holder.key(), name, holder.request.priority(),
                        holder.request.creationMillis(), holder.reservedAtMillis, holder.usage));
            }
        }
        dev.berth.manager.scheduling.PreemptionPlanner.inVictimOrder(admitted);
        return admitted;
    }
}
