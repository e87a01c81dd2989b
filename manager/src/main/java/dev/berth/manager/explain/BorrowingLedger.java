package dev.berth.manager.explain;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.core.QuotaSnapshot.CohortNode;
import dev.berth.manager.core.QuotaSnapshot.QueueQuota;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceQuota;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Who borrows what from whom, per cohort and flavor/resource. Kueue has no notion of a lender, so
 * Berth attributes borrowing deterministically (docs/semantics.md, "Borrowing attribution"): the
 * ClusterQueues of a cohort that use more than their nominal quota borrow, in name order; each
 * takes from the unused lendable quota of its sibling ClusterQueues in name order (unused nominal,
 * capped by the sibling's lendingLimit); what siblings cannot cover comes from the cohort itself
 * (its own quota or its parent).
 */
public final class BorrowingLedger {
    private BorrowingLedger() {}

    /** A lender (or the cohort) and the amount, in canonical units. */
    public record Share(String kind, String name, long amount) {
    }

    /** One ClusterQueue's line for one flavor/resource. Limits are null when unset. */
    public record Line(String clusterQueue, long nominal, long usage, long borrowed, List<Share> borrowedFrom,
                       long lent, List<Share> lentTo, Long borrowingLimit, Long lendingLimit, int pendingWorkloads) {
        public Long borrowingHeadroom() {
            return borrowingLimit == null ? null : Math.max(0, borrowingLimit - borrowed);
        }

        public Long lendingHeadroom() {
            return lendingLimit == null ? null : Math.max(0, lendingLimit - lent);
        }
    }

    public record ResourceLedger(String flavor, String resource, List<Line> clusterQueues, long fromCohort) {
    }

    public record CohortLedger(String name, String parent, List<String> childCohorts, List<String> clusterQueues,
                               List<ResourceLedger> resources) {
    }

    public static List<CohortLedger> of(QuotaSnapshot snapshot) {
        List<CohortLedger> ledgers = new ArrayList<>();
        for (CohortNode cohort : snapshot.cohorts()) {
            List<String> children = snapshot.cohorts().stream().filter(c -> cohort.name().equals(c.parent()))
                    .map(CohortNode::name).sorted().toList();
            List<QueueQuota> members = snapshot.clusterQueues().stream().filter(q -> cohort.name().equals(q.cohort()))
                    .sorted(Comparator.comparing(QueueQuota::name)).toList();
            TreeSet<FlavorResource> resources = new TreeSet<>(Comparator.comparing(FlavorResource::flavor).thenComparing(FlavorResource::resource));
            for (QueueQuota queue : members) resources.addAll(queue.quotas().keySet());
            List<ResourceLedger> lines = new ArrayList<>();
            for (FlavorResource fr : resources) lines.add(attribute(cohort.name(), fr, members));
            ledgers.add(new CohortLedger(cohort.name(), cohort.parent(), children,
                    members.stream().map(QueueQuota::name).toList(), lines));
        }
        return ledgers;
    }

    static ResourceLedger attribute(String cohort, FlavorResource fr, List<QueueQuota> members) {
        int n = members.size();
        long[] lendable = new long[n];
        long[] lent = new long[n];
        List<List<Share>> lentTo = new ArrayList<>();
        List<List<Share>> borrowedFrom = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            QueueQuota queue = members.get(i);
            ResourceQuota quota = queue.quotas().get(fr);
            long unused = Math.max(0, nominal(quota) - queue.usage(fr));
            lendable[i] = quota != null && quota.lendingLimit() != null ? Math.min(unused, quota.lendingLimit()) : unused;
            lentTo.add(new ArrayList<>());
            borrowedFrom.add(new ArrayList<>());
        }
        long fromCohort = 0;
        for (int b = 0; b < n; b++) {
            QueueQuota borrower = members.get(b);
            long need = Math.max(0, borrower.usage(fr) - nominal(borrower.quotas().get(fr)));
            for (int l = 0; l < n && need > 0; l++) {
                if (l == b || lendable[l] == 0) continue;
                long take = Math.min(need, lendable[l]);
                lendable[l] -= take;
                lent[l] += take;
                need -= take;
                borrowedFrom.get(b).add(new Share("ClusterQueue", members.get(l).name(), take));
                lentTo.get(l).add(new Share("ClusterQueue", borrower.name(), take));
            }
            if (need > 0) {
                borrowedFrom.get(b).add(new Share("Cohort", cohort, need));
                fromCohort = Amounts.add(fromCohort, need);
            }
        }
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            QueueQuota queue = members.get(i);
            ResourceQuota quota = queue.quotas().get(fr);
            long nominal = nominal(quota);
            lines.add(new Line(queue.name(), nominal, queue.usage(fr), Math.max(0, queue.usage(fr) - nominal),
                    List.copyOf(borrowedFrom.get(i)), lent[i], List.copyOf(lentTo.get(i)),
                    quota == null ? null : quota.borrowingLimit(), quota == null ? null : quota.lendingLimit(),
                    queue.pendingWorkloads()));
        }
        return new ResourceLedger(fr.flavor(), fr.resource(), lines, fromCohort);
    }

    private static long nominal(ResourceQuota quota) {
        return quota == null ? 0 : quota.nominal();
    }

}
