package dev.berth.manager.dashboard;

import dev.berth.manager.explain.WorkerClusterRow;
import dev.berth.manager.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The worker clusters view's data: each cluster's row from the clusters view, with capacity per
 * flavor and resource as numbers (allocatable and free, for the bars) next to the agent's quantities.
 */
final class ClusterCards {
    private ClusterCards() {}

    static List<Map<String, Object>> render(List<WorkerClusterRow> rows) {
        return rows.stream().map(ClusterCards::card).toList();
    }

    private static Map<String, Object> card(WorkerClusterRow row) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", row.name());
        m.put("connected", row.connected());
        m.put("health", row.health());
        m.put("breaker", row.breaker());
        m.put("lastReportTime", row.lastReportTime());
        m.put("lastError", row.lastError());
        m.put("capacity", row.capacity().stream().map(ClusterCards::flavor).toList());
        m.put("runningWorkloads", row.runningWorkloads());
        return m;
    }

    private static Map<String, Object> flavor(WorkerClusterRow.FlavorRow flavor) {
        List<Map<String, Object>> resources = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>(flavor.allocatable().keySet());
        names.addAll(flavor.free().keySet());
        for (String resource : names) {
            String allocatable = flavor.allocatable().getOrDefault(resource, "0");
            String free = flavor.free().getOrDefault(resource, "0");
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("resource", resource);
            r.put("allocatable", amount(resource, allocatable));
            r.put("allocatableText", allocatable);
            r.put("free", amount(resource, free));
            r.put("freeText", free);
            resources.add(r);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flavor", flavor.flavor());
        m.put("nodes", flavor.nodes());
        m.put("resources", resources);
        return m;
    }

    /** The canonical amount, or 0 when the agent sent something unreadable (the text still shows). */
    private static long amount(String resource, String text) {
        try {
            return Quantity.amount(resource, text);
        } catch (RuntimeException unreadable) {
            return 0;
        }
    }
}
