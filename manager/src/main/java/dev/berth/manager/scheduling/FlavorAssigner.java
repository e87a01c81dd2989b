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
import java.util.Set;

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
    private final boolean fairSharing;
    private final PreemptionOracle oracle;
    /** Flavors this workload skips: the dispatcher found no connected worker cluster offers them (issue 20). */
    private final Set<String> avoided;

    /** An assigner that takes every flavor needing preemption to have candidates (no simulation). */
    public FlavorAssigner(ClusterQueueSpec queue, Map<String, ResourceFlavor> flavors, QuotaTree quota, boolean fairSharing) {
        this(queue, flavors, quota, fairSharing, PreemptionOracle.OPTIMISTIC);
    }

    public FlavorAssigner(ClusterQueueSpec queue, Map<String, ResourceFlavor> flavors, QuotaTree quota, boolean fairSharing,
                          PreemptionOracle oracle) {
        this(queue, flavors, quota, fairSharing, oracle, Set.of());
    }

    private FlavorAssigner(ClusterQueueSpec queue, Map<String, ResourceFlavor> flavors, QuotaTree quota, boolean fairSharing,
                           PreemptionOracle oracle, Set<String> avoided) {
        this.avoided = avoided;
        this.fairSharing = fairSharing;
        this.oracle = oracle;
        this.queue = queue;
        this.flavors = flavors;
        this.quota = quota;
        PreemptionPolicy reclaim = queue.preemption().reclaimWithinCohort();
        this.canPreemptWhileBorrowing = queue.preemption().borrowWithinCohortPolicy() != PreemptionPolicy.NEVER
                || (fairSharing && reclaim != PreemptionPolicy.NEVER);
        this.canPreemptAtAll = queue.preemption().withinClusterQueue() != PreemptionPolicy.NEVER
                || reclaim != PreemptionPolicy.NEVER;
    }

    /**
     * The same assigner, for a workload that skips these flavors: a flavor no connected worker cluster
     * offered it when it last held quota there (a snapshot the dispatcher keeps; see UnservedFlavors).
     */
    public FlavorAssigner avoiding(Set<String> flavorsToSkip) {
        if (flavorsToSkip.isEmpty() && avoided.isEmpty()) return this;
        return new FlavorAssigner(queue, flavors, quota, fairSharing, oracle, Set.copyOf(flavorsToSkip));
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
            mode = mode.worse(choice.mode());
            if (choice.flavor == null) continue;
            borrows |= choice.borrows();
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
            if (avoided.contains(flavorName)) {
                reasons.add(skippedAsUnserved(flavorName));
                continue;
            }
            String ineligible = FlavorEligibility.reasonIneligible(flavor, podSet);
            if (ineligible != null) {
                reasons.add(ineligible);
                continue;
            }
            // Kueue's representativeMode: the least preferred (rank, borrowing level) over the group's resources.
            GroupChoice candidate = new GroupChoice(flavorName, FlavorRank.FIT, 0, 0, List.of());
            for (Map.Entry<String, Long> total : totals.entrySet()) {
                if (!group.covers(total.getKey())) continue;
                FlavorResource fr = new FlavorResource(flavorName, total.getKey());
                long wanted = Amounts.add(total.getValue(), assignedSoFar.getOrDefault(fr, 0L));
                ResourceFit fit = fitQuota(fr, wanted);
                candidate = candidate.worstWith(fit, fungibility.preference());
                if (fit.reason != null) reasons.add(fit.reason);
                if (candidate.rank == FlavorRank.NO_FIT) break;
            }
            if (!shouldTryNextFlavor(candidate, fungibility)) return candidate.rank == FlavorRank.FIT ? candidate : candidate.withReasons(reasons);
            if (best == null ? candidate.rank.isViable() : isPreferred(candidate, best, fungibility.preference())) best = candidate;
        }
        if (best == null) return new GroupChoice(null, FlavorRank.NO_FIT, 0, 0, reasons);
        return best.rank == FlavorRank.FIT ? best : best.withReasons(reasons);
    }

    /** Why an avoided flavor was not tried; explain matches on this wording. */
    public static String skippedAsUnserved(String flavor) {
        return "flavor " + flavor + " skipped: no connected worker cluster offers it";
    }

    /**
     * Kueue's shouldTryNextFlavor: a flavor that does not fit, or needs preemption with no one to preempt,
     * never ends the search; one that needs preemption or borrowing ends it unless the queue's
     * flavorFungibility says TryNextFlavor for that.
     */
    private static boolean shouldTryNextFlavor(GroupChoice choice, FlavorFungibility fungibility) {
        if (choice.rank == FlavorRank.NO_FIT || choice.rank == FlavorRank.NO_CANDIDATES) return true;
        if (choice.rank.needsPreemption() && fungibility.whenCanPreempt() == FlavorFungibility.Policy.TRY_NEXT_FLAVOR) return true;
        return choice.level > 0 && fungibility.whenCanBorrow() == FlavorFungibility.Policy.TRY_NEXT_FLAVOR;
    }

    /**
     * Kueue's isPreferred over granular modes: a flavor without preemption candidates ranks below every
     * viable one; then, by default, the better mode (fit, reclaim, preempt) and then the lower borrowing
     * level (quota from a nearer ancestor cohort); with PreemptionOverBorrowing, the lower borrowing
     * level first and then the better mode.
     */
    private static boolean isPreferred(FlavorRank rank, int level, FlavorRank bestRank, int bestLevel,
                                       FlavorFungibility.Preference preference) {
        if (rank == FlavorRank.NO_FIT) return false;
        if (bestRank == FlavorRank.NO_FIT) return true;
        boolean stuck = rank == FlavorRank.NO_CANDIDATES;
        if (stuck != (bestRank == FlavorRank.NO_CANDIDATES)) return !stuck;
        if (preference == FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING) {
            if (level != bestLevel) return level < bestLevel;
            return rank.ordinal() > bestRank.ordinal();
        }
        if (rank != bestRank) return rank.ordinal() > bestRank.ordinal();
        return level < bestLevel;
    }

    private static boolean isPreferred(GroupChoice candidate, GroupChoice best, FlavorFungibility.Preference preference) {
        return isPreferred(candidate.rank, candidate.level, best.rank, best.level, preference);
    }

    private ResourceFit fitQuota(FlavorResource fr, long wanted) {
        long available = quota.available(queue.name(), fr);
        long maximum = quota.potentialAvailable(queue.name(), fr);
        String resource = fr.resource();
        if (wanted > maximum) {
            return new ResourceFit(FlavorRank.NO_FIT, 0, "insufficient quota for " + resource + " in flavor " + fr.flavor()
                    + ", request > maximum capacity (" + Quantity.format(resource, wanted) + " > " + Quantity.format(resource, maximum) + ")");
        }
        int level = quota.borrowingLevel(queue.name(), fr, wanted);
        if (wanted <= available) return new ResourceFit(FlavorRank.FIT, level, null);
        String reason = "insufficient unused quota for " + resource + " in flavor " + fr.flavor() + ", "
                + Quantity.format(resource, Amounts.subtract(wanted, available)) + " more needed";
        boolean preemptionCanHelp = canPreemptAtAll && (wanted <= quota.nominal(queue.name(), fr) || canPreemptWhileBorrowing
                || quota.mayReclaimInHierarchy(queue.name(), fr, wanted));
        if (!preemptionCanHelp) return new ResourceFit(FlavorRank.NO_FIT, level, reason);
        PreemptionOracle.Simulation simulation = oracle.simulate(fr, wanted);
        FlavorRank rank = switch (simulation.possibility()) {
            case NO_CANDIDATES -> FlavorRank.NO_CANDIDATES;
            case PREEMPT -> FlavorRank.PREEMPT;
            case RECLAIM -> FlavorRank.RECLAIM;
        };
        // Kueue's borrowAfterPreemptions: the level once the candidates are gone, not because they use the quota now.
        // An oracle that does not simulate leaves it to the nominal quota: borrowing only beyond it.
        int levelAfter = simulation.borrowingLevel() != PreemptionOracle.UNKNOWN_LEVEL ? simulation.borrowingLevel()
                : quota.hasCohort(queue.name()) && wanted > quota.nominal(queue.name(), fr) ? 1 : 0;
        return new ResourceFit(rank, levelAfter, reason);
    }

    /** How one resource fits a flavor: Kueue's preemption mode and borrowing level (0: no borrowing). */
    private record ResourceFit(FlavorRank rank, int level, String reason) {
    }

    /**
     * A flavor for a resource group: its representative rank and borrowing level, which the flavor
     * choice compares, and the highest level of any of its resources, which says whether it borrows.
     */
    private record GroupChoice(String flavor, FlavorRank rank, int level, int maxLevel, List<String> reasons) {
        GroupChoice withReasons(List<String> newReasons) {
            return new GroupChoice(flavor, rank, level, maxLevel, List.copyOf(newReasons));
        }

        /** Kueue: the representative mode becomes the resource's mode when it is the less preferred one. */
        GroupChoice worstWith(ResourceFit fit, FlavorFungibility.Preference preference) {
            boolean resourceIsWorse = isPreferred(rank, level, fit.rank, fit.level, preference);
            return new GroupChoice(flavor, resourceIsWorse ? fit.rank : rank, resourceIsWorse ? fit.level : level,
                    Math.max(maxLevel, fit.level), reasons);
        }

        boolean borrows() {
            return maxLevel > 0;
        }

        FitMode mode() {
            return rank.fitMode();
        }
    }
}
