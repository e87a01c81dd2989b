package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Quota arithmetic over the cohort tree, with Kueue's semantics for nominal quota, borrowing limits
 * and lending limits on ClusterQueues and Cohorts. Usage is kept per node and propagated upwards:
 * a node's usage beyond its guaranteed (non-lendable) quota is usage of its parent.
 *
 * <p>The tree is the scheduler's cache. Decisions read it through {@link #available},
 * {@link #potentialAvailable} and {@link #borrowingWith}; the cycle applies an admission with
 * {@link #addUsage} and undoes it with {@link #removeUsage}.
 */
public final class QuotaTree {
    private final Map<String, QuotaNode> clusterQueues = new HashMap<>();
    private final Map<String, QuotaNode> cohorts = new HashMap<>();
    private final Set<String> queuesInCycles = new HashSet<>();
    private final Set<String> cohortsInCycles = new HashSet<>();
    /** The root cohort name of every ClusterQueue, computed once: the cycle asks for it per queue and head. */
    private final Map<String, String> rootNames = new HashMap<>();

    private QuotaTree() {}

    /** Builds the tree. Cohorts named by a ClusterQueue or a parentName but never declared exist implicitly. */
    public static QuotaTree build(Collection<ClusterQueueSpec> queues, Collection<CohortSpec> declaredCohorts) {
        QuotaTree tree = new QuotaTree();
        Map<String, CohortSpec> cohortSpecs = new HashMap<>();
        for (CohortSpec cohort : declaredCohorts) cohortSpecs.put(cohort.name(), cohort);
        for (ClusterQueueSpec queue : queues) {
            if (queue.cohort() != null) cohortSpecs.putIfAbsent(queue.cohort(), CohortSpec.implicit(queue.cohort()));
        }
        for (CohortSpec cohort : List.copyOf(cohortSpecs.values())) {
            if (cohort.parent() != null) cohortSpecs.putIfAbsent(cohort.parent(), CohortSpec.implicit(cohort.parent()));
        }
        for (CohortSpec cohort : cohortSpecs.values()) {
            tree.cohorts.put(cohort.name(), new QuotaNode(cohort.name(), false, quotasOf(cohort.resourceGroups()), cohort.fairSharingWeight()));
        }
        for (CohortSpec cohort : cohortSpecs.values()) {
            if (cohort.parent() != null) link(tree.cohorts.get(cohort.parent()), tree.cohorts.get(cohort.name()));
        }
        Set<QuotaNode> cyclic = tree.cohortsInCycles();
        for (QuotaNode cohort : cyclic) tree.cohortsInCycles.add(cohort.name);
        for (ClusterQueueSpec queue : queues) {
            QuotaNode node = new QuotaNode(queue.name(), true, quotasOf(queue.resourceGroups()), queue.fairSharingWeight());
            tree.clusterQueues.put(queue.name(), node);
            if (queue.cohort() != null) {
                QuotaNode cohort = tree.cohorts.get(queue.cohort());
                if (cyclic.contains(cohort)) {
                    tree.queuesInCycles.add(queue.name());
                } else {
                    link(cohort, node);
                }
            }
        }
        for (QuotaNode cohort : tree.cohorts.values()) {
            if (cohort.parent == null && !cyclic.contains(cohort)) computeSubtreeQuota(cohort);
        }
        for (QuotaNode queue : tree.clusterQueues.values()) {
            if (queue.parent == null) computeSubtreeQuota(queue);
        }
        return tree;
    }

    private static void link(QuotaNode parent, QuotaNode child) {
        child.parent = parent;
        parent.children.add(child);
    }

    private Set<QuotaNode> cohortsInCycles() {
        Set<QuotaNode> cyclic = new HashSet<>();
        for (QuotaNode start : cohorts.values()) {
            Set<QuotaNode> seen = new HashSet<>();
            QuotaNode node = start;
            while (node != null && seen.add(node)) node = node.parent;
            if (node != null) cyclic.add(start);
        }
        return cyclic;
    }

    private static Map<FlavorResource, ResourceQuota> quotasOf(List<ResourceGroup> groups) {
        Map<FlavorResource, ResourceQuota> quotas = new LinkedHashMap<>();
        for (ResourceGroup group : groups) {
            for (FlavorQuotas flavor : group.flavors()) {
                for (ResourceQuota quota : flavor.resources()) {
                    quotas.put(new FlavorResource(flavor.flavor(), quota.resource()), quota);
                }
            }
        }
        return quotas;
    }

    private static void computeSubtreeQuota(QuotaNode node) {
        node.subtreeQuota.clear();
        for (Map.Entry<FlavorResource, ResourceQuota> quota : node.quotas.entrySet()) {
            node.subtreeQuota.put(quota.getKey(), quota.getValue().nominal());
        }
        for (QuotaNode child : node.children) {
            computeSubtreeQuota(child);
            for (Map.Entry<FlavorResource, Long> childQuota : child.subtreeQuota.entrySet()) {
                long lendable = childQuota.getValue() - child.guaranteedQuota(childQuota.getKey());
                node.subtreeQuota.merge(childQuota.getKey(), lendable, Amounts::add);
            }
        }
    }

    /** A ClusterQueue whose cohort sits in a parent cycle: Kueue leaves such queues inactive. */
    public boolean inCohortCycle(String clusterQueue) {
        return queuesInCycles.contains(clusterQueue);
    }

    public boolean hasClusterQueue(String clusterQueue) {
        return clusterQueues.containsKey(clusterQueue);
    }

    /** True when the ClusterQueue belongs to a cohort, so it can borrow and lend. */
    public boolean hasCohort(String clusterQueue) {
        return node(clusterQueue).parent != null;
    }

    /** The name of the root cohort of the queue's tree, or the queue itself when it has no cohort. */
    public String rootOf(String clusterQueue) {
        String cached = rootNames.get(clusterQueue);
        if (cached != null) return cached;
        QuotaNode root = node(clusterQueue).root();
        String name = root.clusterQueue ? "cq:" + root.name : root.name;
        rootNames.put(clusterQueue, name);
        return name;
    }

    /** How much more of a flavor-resource the ClusterQueue can use now, borrowing included. */
    public long available(String clusterQueue, FlavorResource fr) {
        return Math.max(0, available(node(clusterQueue), fr));
    }

    private static long available(QuotaNode node, FlavorResource fr) {
        if (node.parent == null) return Amounts.subtract(node.subtreeQuota(fr), node.usage(fr));
        long guaranteed = node.guaranteedQuota(fr);
        long localAvailable = Math.max(0, Amounts.subtract(guaranteed, node.usage(fr)));
        long parentAvailable = available(node.parent, fr);
        Long borrowingLimit = node.borrowingLimit(fr);
        if (borrowingLimit != null) {
            long storedInParent = Amounts.subtract(node.subtreeQuota(fr), guaranteed);
            long usedInParent = Math.max(0, Amounts.subtract(node.usage(fr), guaranteed));
            long withMaxFromParent = Amounts.add(Amounts.subtract(storedInParent, usedInParent), borrowingLimit);
            parentAvailable = Math.min(withMaxFromParent, parentAvailable);
        }
        return Amounts.add(localAvailable, parentAvailable);
    }

    /** The most the ClusterQueue could ever use if nothing else in its cohort used anything. */
    public long potentialAvailable(String clusterQueue, FlavorResource fr) {
        return potentialAvailable(node(clusterQueue), fr);
    }

    static long potentialAvailable(QuotaNode node, FlavorResource fr) {
        if (node.parent == null) return node.subtreeQuota(fr);
        long potential = Amounts.add(node.guaranteedQuota(fr), potentialAvailable(node.parent, fr));
        Long borrowingLimit = node.borrowingLimit(fr);
        if (borrowingLimit != null) potential = Math.min(potential, Amounts.add(node.subtreeQuota(fr), borrowingLimit));
        return potential;
    }

    /** Would using {@code amount} more put the ClusterQueue above its nominal quota? */
    public boolean borrowingWith(String clusterQueue, FlavorResource fr, long amount) {
        QuotaNode node = node(clusterQueue);
        return Amounts.add(node.usage(fr), amount) > node.subtreeQuota(fr);
    }

    /**
     * Kueue's borrowing level (FindHeightOfLowestSubtreeThatFits): 0 when {@code amount} more fits the
     * queue's nominal quota, else the height of the lowest ancestor cohort whose subtree has room for
     * it (a cohort of only ClusterQueues has height 1); the whole tree's height when none has.
     */
    public int borrowingLevel(String clusterQueue, FlavorResource fr, long amount) {
        QuotaNode node = node(clusterQueue);
        if (node.parent == null || !borrowingWith(clusterQueue, fr, amount)) return 0;
        long remaining = Amounts.subtract(amount, Math.max(0, Amounts.subtract(node.guaranteedQuota(fr), node.usage(fr))));
        for (QuotaNode cohort = node.parent; cohort != null; cohort = cohort.parent) {
            if (Amounts.add(cohort.usage(fr), remaining) <= cohort.subtreeQuota(fr)) return height(cohort);
            remaining = Amounts.subtract(remaining, Math.max(0, Amounts.subtract(cohort.guaranteedQuota(fr), cohort.usage(fr))));
        }
        return height(node.root());
    }

    /**
     * Kueue's mayReclaimInHierarchy (FindHeightOfLowestSubtreeThatFits' second result): the lowest
     * subtree with room for {@code amount} more, starting at the queue itself, is smaller than the
     * whole tree, so preemption may reclaim quota the queue's subtree lends out.
     */
    public boolean mayReclaimInHierarchy(String clusterQueue, FlavorResource fr, long amount) {
        QuotaNode node = node(clusterQueue);
        if (node.parent == null) return false;
        if (!borrowingWith(clusterQueue, fr, amount)) return true;
        long remaining = Amounts.subtract(amount, Math.max(0, Amounts.subtract(node.guaranteedQuota(fr), node.usage(fr))));
        for (QuotaNode cohort = node.parent; cohort != null; cohort = cohort.parent) {
            if (Amounts.add(cohort.usage(fr), remaining) <= cohort.subtreeQuota(fr)) return cohort.parent != null;
            remaining = Amounts.subtract(remaining, Math.max(0, Amounts.subtract(cohort.guaranteedQuota(fr), cohort.usage(fr))));
        }
        return false;
    }

    private static int height(QuotaNode cohort) {
        int height = Math.min(cohort.children.size(), 1);
        for (QuotaNode child : cohort.children) {
            if (!child.clusterQueue) height = Math.max(height, height(child) + 1);
        }
        return height;
    }

    /** True when the ClusterQueue uses more than its nominal quota of any of these flavor-resources. */
    public boolean isBorrowing(String clusterQueue, Collection<FlavorResource> frs) {
        QuotaNode node = node(clusterQueue);
        if (node.parent == null) return false;
        for (FlavorResource fr : frs) {
            if (node.usage(fr) > node.subtreeQuota(fr)) return true;
        }
        return false;
    }

    public long usage(String clusterQueue, FlavorResource fr) {
        return node(clusterQueue).usage(fr);
    }

    public long nominal(String clusterQueue, FlavorResource fr) {
        return node(clusterQueue).nominal(fr);
    }

    public Long borrowingLimit(String clusterQueue, FlavorResource fr) {
        return node(clusterQueue).borrowingLimit(fr);
    }

    public Long lendingLimit(String clusterQueue, FlavorResource fr) {
        ResourceQuota quota = node(clusterQueue).quotas.get(fr);
        return quota == null ? null : quota.lendingLimit();
    }

    /** The flavor-resources this ClusterQueue defines quota for, in spec order. */
    public Set<FlavorResource> flavorResources(String clusterQueue) {
        return node(clusterQueue).quotas.keySet();
    }

    /** Does {@code usage} fit the queue now? With allowBorrowing false, no resource may exceed nominal. */
    public boolean fits(String clusterQueue, Map<FlavorResource, Long> usage, boolean allowBorrowing) {
        for (Map.Entry<FlavorResource, Long> entry : usage.entrySet()) {
            if (!allowBorrowing && borrowingWith(clusterQueue, entry.getKey(), entry.getValue())) return false;
            if (entry.getValue() > available(clusterQueue, entry.getKey())) return false;
        }
        return true;
    }

    public void addUsage(String clusterQueue, Map<FlavorResource, Long> usage) {
        QuotaNode node = node(clusterQueue);
        for (Map.Entry<FlavorResource, Long> entry : usage.entrySet()) changeUsage(node, entry.getKey(), entry.getValue());
    }

    public void removeUsage(String clusterQueue, Map<FlavorResource, Long> usage) {
        QuotaNode node = node(clusterQueue);
        for (Map.Entry<FlavorResource, Long> entry : usage.entrySet()) changeUsage(node, entry.getKey(), -entry.getValue());
    }

    private static void changeUsage(QuotaNode node, FlavorResource fr, long delta) {
        long before = node.usage(fr);
        long after = Amounts.add(before, delta);
        if (after == 0) node.usage.remove(fr); else node.usage.put(fr, after);
        if (node.parent != null) {
            long guaranteed = node.guaranteedQuota(fr);
            long parentDelta = Amounts.subtract(Math.max(0, Amounts.subtract(after, guaranteed)), Math.max(0, Amounts.subtract(before, guaranteed)));
            if (parentDelta != 0) changeUsage(node.parent, fr, parentDelta);
        }
    }

    /**
     * Kueue's dominant resource share of a ClusterQueue (or the cohort it is in) with extra usage:
     * the largest borrowed fraction of the parent's lendable quota over all resources, times 1000,
     * divided by the fair-sharing weight. Zero when nothing is borrowed; the maximum int when the
     * weight is zero and something is borrowed.
     */
    public int dominantResourceShare(String clusterQueue, Map<FlavorResource, Long> extra) {
        return FairShare.dominantResourceShare(node(clusterQueue), extra);
    }

    /**
     * Kueue's precise weighted share of a ClusterQueue (its status.fairSharing and the
     * cluster_queue_weighted_share gauge): see {@link FairShare#preciseWeightedShare}.
     */
    public double weightedShare(String clusterQueue) {
        return FairShare.preciseWeightedShare(node(clusterQueue));
    }

    /** The same for a cohort; 0 for an unknown one or one in a parent cycle. */
    public double cohortWeightedShare(String cohort) {
        QuotaNode node = cohorts.get(cohort);
        return node == null || cohortsInCycles.contains(cohort) ? 0 : FairShare.preciseWeightedShare(node);
    }

    /** Every cohort of the tree, the implicit ones (named but never declared) included. */
    public Set<String> cohortNames() {
        return java.util.Collections.unmodifiableSet(cohorts.keySet());
    }

    /** The ClusterQueues under the same root cohort, this one included. */
    public List<String> clusterQueuesInTree(String clusterQueue) {
        List<String> names = new java.util.ArrayList<>();
        collectQueues(node(clusterQueue).root(), names);
        return names;
    }

    private static void collectQueues(QuotaNode node, List<String> into) {
        if (node.clusterQueue) into.add(node.name);
        for (QuotaNode child : node.children) collectQueues(child, into);
    }


    /** The queue's node, for the package's tree walks ({@link HierarchicalReclaim}). */
    QuotaNode nodeOf(String clusterQueue) {
        return node(clusterQueue);
    }

    private QuotaNode node(String clusterQueue) {
        QuotaNode node = clusterQueues.get(clusterQueue);
        if (node == null) throw new IllegalArgumentException("unknown ClusterQueue " + clusterQueue);
        return node;
    }
}
