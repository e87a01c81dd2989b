package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.protocol.KubeflowJobKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of a Kubeflow training job: the training operator's printer columns (State, the type of the
 * last condition, and Age), with each replica type's active/succeeded/failed pods under {@code -o wide},
 * so {@code kubectl get pytorchjob} on the manager reads as it does on the worker.
 */
final class KubeflowJobColumns {
    private KubeflowJobColumns() {}

    static List<TableColumns.Column> of(KubeflowJobKind kind) {
        List<TableColumns.Column> columns = new ArrayList<>();
        columns.add(new TableColumns.Column("Name", "string", "name", 0, "Name must be unique within a namespace.",
                (o, now) -> TableColumns.text(o, "metadata.name")));
        columns.add(new TableColumns.Column("State", "string", "", 0, ".status.conditions[-1:].type", (o, now) -> state(o)));
        columns.add(TableColumns.ageColumn());
        for (String type : kind.replicaTypes()) {
            columns.add(new TableColumns.Column(type + "s", "string", "", 1,
                    "Active, succeeded and failed " + type + " pods (.status.replicaStatuses." + type + ")",
                    (o, now) -> replicas(o, type)));
        }
        return columns;
    }

    private static String state(JsonNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        return conditions.isArray() && !conditions.isEmpty() ? conditions.get(conditions.size() - 1).path("type").asText() : "";
    }

    private static String replicas(JsonNode job, String type) {
        JsonNode status = job.path("status").path("replicaStatuses").path(type);
        if (!status.isObject()) return "";
        return status.path("active").asInt(0) + "/" + status.path("succeeded").asInt(0) + "/" + status.path("failed").asInt(0);
    }
}
