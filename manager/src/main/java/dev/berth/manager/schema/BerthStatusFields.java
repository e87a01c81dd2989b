package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The status fields Berth's dispatcher adds to a Workload beyond Kueue's schema ({@code dispatch},
 * {@code dispatchHistory}, {@code dispatchHolds}; see docs/failover.md), declared in the Workload
 * schema so that a Workload read from Berth and written back keeps them and draws no warning.
 */
final class BerthStatusFields {
    private BerthStatusFields() {}

    static void addTo(ObjectNode workloadSchema) {
        if (!(workloadSchema.path("properties").path("status").path("properties") instanceof ObjectNode status)) return;
        status.putObject("dispatch").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true)
                .put("description", "Berth: the workload's current dispatch attempt on a worker cluster (attempt id, cluster, phase, lease).");
        ObjectNode history = status.putObject("dispatchHistory").put("type", "array")
                .put("description", "Berth: the workload's past dispatch attempts, one entry per attempt with its outcome.");
        history.putObject("items").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        status.putObject("dispatchHolds").put("x-kubernetes-preserve-unknown-fields", true)
                .put("description", "Berth: the fences holding the workload back from redispatch.");
    }
}
