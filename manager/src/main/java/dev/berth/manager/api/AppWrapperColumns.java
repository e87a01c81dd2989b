package dev.berth.manager.api;

import java.util.List;

/**
 * The table of an AppWrapper, with the printer columns of the AppWrapper CRD (project-codeflare/appwrapper):
 * its phase and the status of its QuotaReserved, ResourcesDeployed and Unhealthy conditions. The cells read
 * the status Berth mirrors from the worker cluster, so {@code kubectl get appwrappers} on the manager reads
 * as it does on the worker.
 */
final class AppWrapperColumns {
    private AppWrapperColumns() {}

    static List<TableColumns.Column> of() {
        return List.of(
                new TableColumns.Column("Name", "string", "name", 0, "Name must be unique within a namespace.",
                        (o, now) -> TableColumns.text(o, "metadata.name")),
                new TableColumns.Column("Status", "string", "", 0, ".status.phase", (o, now) -> TableColumns.text(o, "status.phase")),
                condition("Quota Reserved", "QuotaReserved"),
                condition("Resources Deployed", "ResourcesDeployed"),
                condition("Unhealthy", "Unhealthy"),
                TableColumns.ageColumn());
    }

    private static TableColumns.Column condition(String name, String type) {
        return new TableColumns.Column(name, "string", "", 0, ".status.conditions[?(@.type==\"" + type + "\")].status", (o, now) -> {
            for (var condition : o.path("status").path("conditions")) {
                if (type.equals(condition.path("type").asText())) return condition.path("status").asText("");
            }
            return "";
        });
    }
}
