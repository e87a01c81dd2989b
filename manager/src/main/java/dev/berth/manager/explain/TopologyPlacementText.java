package dev.berth.manager.explain;

import dev.berth.manager.dispatch.TopologyAssignment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Explain's words for where a worker's agent put a pod set's pods (its topology assignment):
 * "pod set main: 2 pods on h100-3, 2 pods on h100-4 (kubernetes.io/hostname)".
 */
final class TopologyPlacementText {
    private TopologyPlacementText() {}

    /** One clause per pod set, joined by "; "; null when there is no assignment. */
    static String of(List<TopologyAssignment> assignments) {
        if (assignments.isEmpty()) return null;
        return String.join("; ", assignments.stream().map(TopologyPlacementText::clause).toList());
    }

    /** The details rows: pod set, levels, and each domain's values with its pod count. */
    static List<Map<String, Object>> rows(List<TopologyAssignment> assignments) {
        return assignments.stream().map(a -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("podSet", a.podSet());
            row.put("levels", a.levels());
            row.put("domains", a.domains().stream().map(d -> Map.<String, Object>of("values", d.values(), "count", d.count())).toList());
            return row;
        }).toList();
    }

    private static String clause(TopologyAssignment assignment) {
        List<String> domains = assignment.domains().stream()
                .map(d -> d.count() + (d.count() == 1 ? " pod on " : " pods on ") + String.join("/", d.values())).toList();
        return "pod set " + assignment.podSet() + ": " + String.join(", ", domains) + " (" + String.join("/", assignment.levels()) + ")";
    }
}
