package dev.berth.manager.explain;

import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.ResourceQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Quota against capacity, per flavor and resource: the nominal quota every ClusterQueue and cohort
 * declares, what is in use, and what the healthy worker clusters that offer the flavor have
 * (allocatable, free now). Over-commitment (more quota than nodes) and idle capacity (free GPUs
 * while the quota is used up) show at a glance, and an explanation can say whether quota or
 * capacity holds a workload back. Pure: built from a quota snapshot and the clusters view.
 */
public final class QuotaAgainstCapacity {
    private QuotaAgainstCapacity() {}

    /** One flavor/resource; amounts in the resource's canonical units. */
    public record Row(String flavor, String resource, long nominalQuota, long inUse, long allocatable, long free, int clusters) {
        /** More quota declared than the healthy clusters that offer the flavor have. */
        public boolean overcommitted() {
            return nominalQuota > allocatable;
        }

        /** Capacity nobody's quota can use: free on the clusters beyond the unused quota. */
        public long idleBeyondQuota() {
            return Math.max(0, free - Math.max(0, nominalQuota - inUse));
        }
    }

    public static List<Row> of(QuotaSnapshot quota, List<WorkerClusterRow> clusters) {
        Map<FlavorResource, long[]> totals = new TreeMap<>(java.util.Comparator.comparing(FlavorResource::flavor)
                .thenComparing(FlavorResource::resource));
        for (QuotaSnapshot.QueueQuota queue : quota.clusterQueues()) {
            queue.quotas().forEach((fr, q) -> totals(totals, fr)[0] = Amounts.add(totals(totals, fr)[0], q.nominal()));
            queue.usage().forEach((fr, used) -> totals(totals, fr)[1] = Amounts.add(totals(totals, fr)[1], used));
        }
        for (QuotaSnapshot.CohortNode cohort : quota.cohorts()) {
            for (Map.Entry<FlavorResource, ResourceQuota> own : cohort.quotas().entrySet()) {
                totals(totals, own.getKey())[0] = Amounts.add(totals(totals, own.getKey())[0], own.getValue().nominal());
            }
        }
        for (WorkerClusterRow cluster : clusters) {
            if (!WorkerClusterRow.HEALTHY.equals(cluster.health())) continue;
            for (WorkerClusterRow.FlavorRow flavor : cluster.capacity()) {
                flavor.allocatable().forEach((resource, amount) -> add(totals, new FlavorResource(flavor.flavor(), resource), 2, amount));
                flavor.free().forEach((resource, amount) -> add(totals, new FlavorResource(flavor.flavor(), resource), 3, amount));
                for (String resource : flavor.allocatable().keySet()) totals(totals, new FlavorResource(flavor.flavor(), resource))[4]++;
            }
        }
        List<Row> rows = new ArrayList<>();
        totals.forEach((fr, t) -> rows.add(new Row(fr.flavor(), fr.resource(), t[0], t[1], t[2], t[3], (int) t[4])));
        return rows;
    }

    /**
     * "; the fleet has 16 idle nvidia.com/gpu (a100-spot 16): quota, not capacity, holds it back", or that
     * capacity is short too; empty when no cluster reports the resource (nothing to compare with).
     */
    static String verdict(List<Row> rows, String resource, long missing) {
        long free = 0;
        boolean reported = false;
        List<String> where = new ArrayList<>();
        for (Row row : rows) {
            if (!row.resource().equals(resource) || row.clusters() == 0) continue;
            reported = true;
            free = Amounts.add(free, row.free());
            if (row.free() > 0) where.add(row.flavor() + " " + Quantity.format(resource, row.free()));
        }
        if (!reported) return "";
        String amount = Quantity.format(resource, free) + " " + resource;
        if (free >= missing && free > 0) {
            return "; the fleet has " + amount + " idle (" + String.join(", ", where) + "): quota, not capacity, holds it back";
        }
        return "; the fleet has only " + amount + " free: capacity is short too";
    }

    private static long[] totals(Map<FlavorResource, long[]> totals, FlavorResource fr) {
        return totals.computeIfAbsent(fr, k -> new long[5]);
    }

    private static void add(Map<FlavorResource, long[]> totals, FlavorResource fr, int column, String amount) {
        long parsed;
        try {
            parsed = Quantity.amount(fr.resource(), amount);
        } catch (RuntimeException unparsable) {
            return; // an agent's report with a quantity we cannot read adds nothing
        }
        totals(totals, fr)[column] = Amounts.add(totals(totals, fr)[column], parsed);
    }
}
