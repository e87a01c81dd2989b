package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The table of Kubeflow Trainer's TrainJob, with its CRD's printer columns: State (the type of the last
 * condition, as mirrored from the worker: Complete, Failed, Suspended) and Age.
 */
final class TrainJobColumns {
    private TrainJobColumns() {}

    static List<TableColumns.Column> of() {
        return List.of(new TableColumns.Column("Name", "string", "name", 0, "Name must be unique within a namespace.",
                        (o, now) -> TableColumns.text(o, "metadata.name")),
                new TableColumns.Column("State", "string", "", 0, ".status.conditions[-1:].type", (o, now) -> state(o)),
                TableColumns.ageColumn());
    }

    private static String state(JsonNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        return conditions.isArray() && !conditions.isEmpty() ? conditions.get(conditions.size() - 1).path("type").asText() : "";
    }
}
