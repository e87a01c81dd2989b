package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.WorkloadRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's flavor assignment: for each pod set and each resource group it needs, try the group's
 * flavors in order and keep the first that fits, honouring flavorFungibility when a flavor needs
 * borrowing or preemption. A pure function of the queue's spec, the flavors and the quota tree.
 */
public final class FlavorAssigner {
    private static final String PODS = "pods";

    private final ClusterQueueSpec queue;
    private final Map<String, ResourceFlavor> flavors;
    private final QuotaTree quota;
    private final boolean canPreemptWhileBorrowing;
    private final boolean canPreemptAtAll;

    public FlavorAssigner(ClusterQueueSpec queue, Map<String, ResourceFlavor> flavors, QuotaTree quota, boolean fairSharing) {
        this.queue = queue;
        this.flavors = flavors;
        this.quota = quota;
        PreemptionPolicy reclaim = queue.preemption().reclaimWithinCohort();
        this.canPreemptWhileBorrowing = queue.preemption().borrowWithinCohortPolicy() != PreemptionPolicy.NEVER
                || (fairSharing && reclaim != PreemptionPolicy.NEVER);
        this.canPreemptAtAll = queue.preemption().withinClusterQueue() != PreemptionPolicy.NEVER
                || reclaim != PreemptionPolicy.NEVER;
    }

    /** Assigns flavors for every pod set at its full count. */
    public FlavorAssignment assign(WorkloadRequest workload) {
        int[] counts = new int[workload.podSets().size()];
        for (int i = 0; i < counts.length; i++) counts[i] = workload.podSets().get(i).count();
        return assign(workload, counts);
    }

    /** Assigns flavors with the given pod count per pod set (partial admission passes smaller counts). */
    public FlavorAssignment assign(WorkloadRequest workload, int[] counts) {
        Map<FlavorResource, Long> assignedSoFar = new HashMap<>();
        List<PodSetFlavors> podSets = new ArrayList<>();
        FitMode mode = FitMode.FIT;
        boolean borrows = false;
        for (int i = 0; i < workload.podSets().size(); i++) {
            PodSetFlavors podSet = assignPodSet(workload.podSets().get(i), counts[i], assignedSoFar);
            podSets.add(podSet);
            mode = mode.worse(podSet.mode());
            borrows |= podSet.borrows();
            for (Map.Entry<String, Long> used : podSet.resourceUsage().entrySet()) {
                String flavor = podSet.flavors().get(used.getKey());
                if (flavor != null) assignedSoFar.merge(new FlavorResource(flavor, used.getKey()), used.getValue(), Amounts::add);
            }
        }
        return new FlavorAssignment(mode, borrows, podSets);
    }

    private PodSetFlavors assignPodSet(PodSetRequest podSet, int count, Map<FlavorResource, Long> assignedSoFar) {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (Map.Entry<String, Long> request : podSet.perPodRequests().entrySet()) {
            totals.put(request.getKey(), Amounts.multiply(request.getValue(), count));
        }
        if (queue.groupFor(PODS) != null) totals.put(PODS, (long) count);

        Map<String, String> chosen = new HashMap<>();
        List<String> reasons = new ArrayList<>();
        FitMode mode = FitMode.FIT;
        boolean borrows = false;
        List<ResourceGroup> groupsNeeded = new ArrayList<>();
        for (String resource : totals.keySet()) {
            ResourceGroup group = queue.groupFor(resource);
            if (group == null) {
                reasons.add("resource " + resource + " unavailable in ClusterQueue");
                mode = FitMode.NO_FIT;
            } else if (!groupsNeeded.contains(group)) {
                groupsNeeded.add(group);
            }
        }
        if (mode == FitMode.NO_FIT) return new PodSetFlavors(podSet.name(), count, Map.of(), totals, mode, false, reasons);

        for (ResourceGroup group : groupsNeeded) {
            GroupChoice choice = chooseFlavor(group, podSet, totals, assignedSoFar);
            reasons.addAll(choice.reasons);
            mode = mode.worse(choice.mode);
            if (choice.flavor == null) continue;
            borrows |= choice.borrows;
            for (String resource : totals.keySet()) {
                if (group.covers(resource)) chosen.put(resource, choice.flavor);
            }
        }
        if (mode == FitMode.FIT) reasons.clear();
        return new PodSetFlavors(podSet.name(), count, chosen, totals, mode, borrows, reasons);
    }

    private GroupChoice chooseFlavor(ResourceGroup group, PodSetRequest podSet, Map<String, Long> totals,
                                     Map<FlavorResource, Long> assignedSoFar) {
        FlavorFungibility fungibility = queue.flavorFungibility();
        GroupChoice best = null;
        List<String> reasons = new ArrayList<>();
        for (FlavorQuotas flavorQuotas : group.flavors()) {
            String flavorName = flavorQuotas.flavor();
            ResourceFlavor flavor = flavors.get(flavorName);
            if (flavor == null) {
                reasons.add("flavor " + flavorName + " not found");
                continue;
            }
            String ineligible = FlavorEligibility.reasonIneligible(flavor, podSet);
            if (ineligible != null) {
                reasons.add(ineligible);
                continue;
            }
            FitMode mode = FitMode.FIT;
            boolean borrows = false;
            for (Map.Entry<String, Long> total : totals.entrySet()) {
                if (!group.covers(total.getKey())) continue;
                FlavorResource fr = new FlavorResource(flavorName, total.getKey());
                long wanted = Amounts.add(total.getValue(), assignedSoFar.getOrDefault(fr, 0L));
                ResourceFit fit = fitQuota(fr, wanted);
                mode = mode.worse(fit.mode);
                borrows |= fit.borrows;
                if (fit.reason != null) reasons.add(fit.reason);
            }
            GroupChoice candidate = new GroupChoice(flavorName, mode, borrows, List.of());
            if (mode == FitMode.FIT && !borrows) return candidate;
            if (mode == FitMode.FIT && fungibility.whenCanBorrow() == FlavorFungibility.Policy.MAY_STOP_SEARCH) return candidate;
            if (mode == FitMode.PREEMPT && fungibility.whenCanPreempt() == FlavorFungibility.Policy.MAY_STOP_SEARCH) {
                return candidate.withReasons(reasons);
            }
            if (mode != FitMode.NO_FIT && (best == null || isBetter(candidate, best, fungibility.preference()))) best = candidate;
        }
        if (best == null) return new GroupChoice(null, FitMode.NO_FIT, false, reasons);
        return best.mode == FitMode.FIT ? best : best.withReasons(reasons);
    }

    private static boolean isBetter(GroupChoice candidate, GroupChoice best, FlavorFungibility.Preference preference) {
        if (preference == FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING
                && candidate.mode != best.mode && (candidate.borrows != best.borrows)) {
            return !candidate.borrows;
        }
        if (candidate.mode != best.mode) return candidate.mode.ordinal() > best.mode.ordinal();
        return best.borrows && !candidate.borrows;
    }

    private ResourceFit fitQuota(FlavorResource fr, long wanted) {
        long available = quota.available(queue.name(), fr);
        long maximum = quota.potentialAvailable(queue.name(), fr);
        String resource = fr.resource();
        if (wanted > maximum) {
            return new ResourceFit(FitMode.NO_FIT, false, "insufficient quota for " + resource + " in flavor " + fr.flavor()
                    + ", request > maximum capacity (" + Quantity.format(resource, wanted) + " > " + Quantity.format(resource, maximum) + ")");
        }
        boolean borrows = quota.hasCohort(queue.name()) && quota.borrowingWith(queue.name(), fr, wanted);
        if (wanted <= available) return new ResourceFit(FitMode.FIT, borrows, null);
        String reason = "insufficient unused quota for " + resource + " in flavor " + fr.flavor() + ", "
                + Quantity.format(resource, Amounts.subtract(wanted, available)) + " more needed";
        boolean preemptionCanHelp = canPreemptAtAll && (wanted <= quota.nominal(queue.name(), fr) || canPreemptWhileBorrowing);
        // After preemption the workload borrows only if it needs more than the nominal quota (Kueue: val - nominal > 0),
        // not because the workloads it would preempt use the nominal quota now.
        boolean borrowsAfterPreemption = quota.hasCohort(queue.name()) && wanted > quota.nominal(queue.name(), fr);
        return new ResourceFit(preemptionCanHelp ? FitMode.PREEMPT : FitMode.NO_FIT, borrowsAfterPreemption, reason);
    }

    private record ResourceFit(FitMode mode, boolean borrows, String reason) {
    }

    private record GroupChoice(String flavor, FitMode mode, boolean borrows, List<String> reasons) {
        GroupChoice withReasons(List<String> newReasons) {
            return new GroupChoice(flavor, mode, borrows, List.copyOf(newReasons));
        }
    }
}
