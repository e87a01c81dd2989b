package dev.berth.manager.dashboard;

import dev.berth.manager.explain.QuotaAgainstCapacity;
import dev.berth.manager.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The quota-versus-capacity view's data: one row per flavor and resource with the nominal quota all
 * ClusterQueues and cohorts declare, what is in use, and what the healthy worker clusters have
 * (allocatable, free), each as a number (for sorting and bars) and as a Kubernetes quantity (for the
 * label), with the two marks an operator looks for: over-committed and idle beyond quota.
 */
final class CapacityTable {
    private CapacityTable() {}

    static List<Map<String, Object>> render(List<QuotaAgainstCapacity.Row> rows) {
        return rows.stream().map(CapacityTable::row).toList();
    }

    private static Map<String, Object> row(QuotaAgainstCapacity.Row row) {
        String resource = row.resource();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flavor", row.flavor());
        m.put("resource", resource);
        amount(m, "nominalQuota", resource, row.nominalQuota());
        amount(m, "inUse", resource, row.inUse());
        amount(m, "allocatable", resource, row.allocatable());
        amount(m, "free", resource, row.free());
        m.put("healthyClusters", row.clusters());
        m.put("overcommitted", row.overcommitted());
        amount(m, "idleBeyondQuota", resource, row.idleBeyondQuota());
        return m;
    }

    private static void amount(Map<String, Object> m, String field, String resource, long value) {
        m.put(field, value);
        m.put(field + "Text", Quantity.format(resource, value));
    }
}
