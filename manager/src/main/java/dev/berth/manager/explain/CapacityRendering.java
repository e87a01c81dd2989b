package dev.berth.manager.explain;

import dev.berth.manager.model.Quantity;
import dev.berth.protocol.VisibilityApi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The capacity endpoint's body: one item per flavor and resource, quantities as Kubernetes writes them. */
public final class CapacityRendering {
    private CapacityRendering() {}

    public static Map<String, Object> render(List<QuotaAgainstCapacity.Row> rows) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", VisibilityApi.QUOTA_CAPACITY_LIST);
        body.put("apiVersion", VisibilityApi.BERTH_VISIBILITY_GROUP + "/" + VisibilityApi.V1ALPHA1);
        body.put("items", rows.stream().map(CapacityRendering::item).toList());
        return body;
    }

    private static Map<String, Object> item(QuotaAgainstCapacity.Row row) {
        String resource = row.resource();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flavor", row.flavor());
        m.put("resource", resource);
        m.put("nominalQuota", Quantity.format(resource, row.nominalQuota()));
        m.put("inUse", Quantity.format(resource, row.inUse()));
        m.put("allocatable", Quantity.format(resource, row.allocatable()));
        m.put("free", Quantity.format(resource, row.free()));
        m.put("healthyClusters", row.clusters());
        m.put("overcommitted", row.overcommitted());
        m.put("idleBeyondQuota", Quantity.format(resource, row.idleBeyondQuota()));
        return m;
    }
}
