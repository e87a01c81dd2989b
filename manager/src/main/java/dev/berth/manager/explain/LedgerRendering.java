package dev.berth.manager.explain;

import dev.berth.manager.explain.BorrowingLedger.CohortLedger;
import dev.berth.manager.explain.BorrowingLedger.Line;
import dev.berth.manager.explain.BorrowingLedger.ResourceLedger;
import dev.berth.manager.explain.BorrowingLedger.Share;
import dev.berth.manager.model.Quantity;
import dev.berth.protocol.VisibilityApi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The borrowing ledger as the API answers it: quantities as Kubernetes quantity strings. */
public final class LedgerRendering {
    private LedgerRendering() {}

    public static Map<String, Object> render(List<CohortLedger> cohorts) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", VisibilityApi.BORROWING_LEDGER);
        body.put("apiVersion", VisibilityApi.BERTH_VISIBILITY_GROUP + "/" + VisibilityApi.V1ALPHA1);
        body.put("cohorts", cohorts.stream().map(LedgerRendering::cohort).toList());
        return body;
    }

    private static Map<String, Object> cohort(CohortLedger cohort) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", cohort.name());
        m.put("parent", cohort.parent());
        m.put("childCohorts", cohort.childCohorts());
        m.put("clusterQueues", cohort.clusterQueues());
        m.put("resources", cohort.resources().stream().map(LedgerRendering::resource).toList());
        return m;
    }

    private static Map<String, Object> resource(ResourceLedger ledger) {
        String resource = ledger.resource();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flavor", ledger.flavor());
        m.put("resource", resource);
        m.put("borrowedFromCohort", q(resource, ledger.fromCohort()));
        m.put("clusterQueues", ledger.clusterQueues().stream().map(line -> line(resource, line)).toList());
        return m;
    }

    private static Map<String, Object> line(String resource, Line line) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", line.clusterQueue());
        m.put("nominalQuota", q(resource, line.nominal()));
        m.put("usage", q(resource, line.usage()));
        m.put("borrowed", q(resource, line.borrowed()));
        m.put("borrowedFrom", shares(resource, line.borrowedFrom()));
        m.put("lent", q(resource, line.lent()));
        m.put("lentTo", shares(resource, line.lentTo()));
        m.put("borrowingLimit", line.borrowingLimit() == null ? null : q(resource, line.borrowingLimit()));
        m.put("borrowingHeadroom", line.borrowingHeadroom() == null ? null : q(resource, line.borrowingHeadroom()));
        m.put("lendingLimit", line.lendingLimit() == null ? null : q(resource, line.lendingLimit()));
        m.put("lendingHeadroom", line.lendingHeadroom() == null ? null : q(resource, line.lendingHeadroom()));
        m.put("pendingWorkloads", line.pendingWorkloads());
        return m;
    }

    private static List<Map<String, Object>> shares(String resource, List<Share> shares) {
        return shares.stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", s.kind());
            m.put("name", s.name());
            m.put("amount", q(resource, s.amount()));
            return m;
        }).toList();
    }

    private static String q(String resource, long amount) {
        return Quantity.format(resource, amount);
    }
}
