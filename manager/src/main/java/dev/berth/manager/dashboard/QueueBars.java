package dev.berth.manager.dashboard;

import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.core.QuotaSnapshot.QueueQuota;
import dev.berth.manager.explain.BorrowingLedger;
import dev.berth.manager.explain.BorrowingLedger.CohortLedger;
import dev.berth.manager.explain.BorrowingLedger.Line;
import dev.berth.manager.explain.BorrowingLedger.ResourceLedger;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.ResourceQuota;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cohorts view's data: the borrowing ledger per cohort and flavor/resource, with every amount
 * both as a number in canonical units (for the bars) and as a Kubernetes quantity (for the label).
 * ClusterQueues outside any cohort get their own group, nominal quota and usage only.
 */
final class QueueBars {
    static final String NO_COHORT = "";

    private QueueBars() {}

    static List<Map<String, Object>> render(QuotaSnapshot snapshot) {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (CohortLedger cohort : BorrowingLedger.of(snapshot)) {
            groups.add(group(cohort.name(), cohort.parent(), cohort.clusterQueues(),
                    cohort.resources().stream().map(QueueBars::resource).toList()));
        }
        List<QueueQuota> alone = snapshot.clusterQueues().stream().filter(q -> q.cohort() == null || q.cohort().isEmpty())
                .sorted(Comparator.comparing(QueueQuota::name)).toList();
        if (!alone.isEmpty()) {
            groups.add(group(NO_COHORT, null, alone.stream().map(QueueQuota::name).toList(), standalone(alone)));
        }
        return groups;
    }

    private static Map<String, Object> group(String name, String parent, List<String> queues, List<Map<String, Object>> resources) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cohort", name);
        m.put("parent", parent);
        m.put("clusterQueues", queues);
        m.put("resources", resources);
        return m;
    }

    private static Map<String, Object> resource(ResourceLedger ledger) {
        String resource = ledger.resource();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Line line : ledger.clusterQueues()) {
            Map<String, Object> row = row(line.clusterQueue(), resource, line.nominal(), line.usage(), line.pendingWorkloads());
            amount(row, "borrowed", resource, line.borrowed());
            amount(row, "lent", resource, line.lent());
            row.put("borrowedFrom", shares(resource, line.borrowedFrom()));
            row.put("lentTo", shares(resource, line.lentTo()));
            if (line.borrowingHeadroom() != null) amount(row, "borrowingHeadroom", resource, line.borrowingHeadroom());
            if (line.lendingHeadroom() != null) amount(row, "lendingHeadroom", resource, line.lendingHeadroom());
            rows.add(row);
        }
        return resourceGroup(ledger.flavor(), resource, rows, Quantity.format(resource, ledger.fromCohort()));
    }

    private static List<Map<String, Object>> standalone(List<QueueQuota> queues) {
        Map<FlavorResource, List<Map<String, Object>>> byResource = new java.util.TreeMap<>(
                Comparator.comparing(FlavorResource::flavor).thenComparing(FlavorResource::resource));
        for (QueueQuota queue : queues) {
            for (Map.Entry<FlavorResource, ResourceQuota> quota : queue.quotas().entrySet()) {
                FlavorResource fr = quota.getKey();
                Map<String, Object> row = row(queue.name(), fr.resource(), quota.getValue().nominal(), queue.usage(fr),
                        queue.pendingWorkloads());
                amount(row, "borrowed", fr.resource(), 0);
                amount(row, "lent", fr.resource(), 0);
                row.put("borrowedFrom", List.of());
                row.put("lentTo", List.of());
                byResource.computeIfAbsent(fr, k -> new ArrayList<>()).add(row);
            }
        }
        List<Map<String, Object>> resources = new ArrayList<>();
        byResource.forEach((fr, rows) -> resources.add(resourceGroup(fr.flavor(), fr.resource(), rows, null)));
        return resources;
    }

    private static Map<String, Object> resourceGroup(String flavor, String resource, List<Map<String, Object>> rows, String fromCohort) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flavor", flavor);
        m.put("resource", resource);
        m.put("borrowedFromCohort", fromCohort);
        m.put("queues", rows);
        return m;
    }

    private static Map<String, Object> row(String queue, String resource, long nominal, long usage, int pending) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", queue);
        amount(row, "nominal", resource, nominal);
        amount(row, "usage", resource, usage);
        row.put("pendingWorkloads", pending);
        return row;
    }

    /** field: the canonical amount; fieldText: the quantity a person reads. */
    private static void amount(Map<String, Object> row, String field, String resource, long value) {
        row.put(field, value);
        row.put(field + "Text", Quantity.format(resource, value));
    }

    private static List<String> shares(String resource, List<BorrowingLedger.Share> shares) {
        return shares.stream().map(s -> s.name() + " " + Quantity.format(resource, s.amount())).toList();
    }
}
