package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.protocol.ServingKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables of the serving kinds as kubectl prints them from a real API server: a Deployment's
 * READY (ready/desired), UP-TO-DATE, AVAILABLE and AGE; a StatefulSet's READY and AGE; with
 * {@code -o wide} the containers and images. A LeaderWorkerSet has its CRD's printer columns
 * (Ready, Desired, Up-to-date, Age).
 */
final class ServingColumns {
    private ServingColumns() {}

    static List<TableColumns.Column> of(ServingKind kind) {
        List<TableColumns.Column> columns = new ArrayList<>();
        columns.add(TableColumns.nameColumn());
        if (kind.equals(ServingKind.LEADER_WORKER_SET)) {
            columns.add(integer("Ready", "Number of ready replicas", o -> o.path("status").path("readyReplicas").asInt(0)));
            columns.add(integer("Desired", "Number of desired replicas", ServingColumns::desired));
            columns.add(integer("Up-to-date", "Number of up-to-date replicas", o -> o.path("status").path("updatedReplicas").asInt(0)));
            columns.add(TableColumns.ageColumn());
            return columns;
        }
        columns.add(new TableColumns.Column("Ready", "string", "", 0, "Number of the pod with ready state",
                (o, now) -> o.path("status").path("readyReplicas").asInt(0) + "/" + desired(o)));
        if (kind.equals(ServingKind.DEPLOYMENT)) {
            columns.add(integer("Up-to-date", "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
                    o -> o.path("status").path("updatedReplicas").asInt(0)));
            columns.add(integer("Available", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
                    o -> o.path("status").path("availableReplicas").asInt(0)));
        }
        columns.add(TableColumns.ageColumn());
        columns.add(new TableColumns.Column("Containers", "string", "", 1, "Names of each container in the template.",
                (o, now) -> containers(o, "name")));
        columns.add(new TableColumns.Column("Images", "string", "", 1, "Images referenced by each container in the template.",
                (o, now) -> containers(o, "image")));
        return columns;
    }

    private static int desired(JsonNode object) {
        JsonNode replicas = object.path("spec").path("replicas");
        return replicas.canConvertToInt() ? replicas.asInt() : 1;
    }

    private static TableColumns.Column integer(String name, String description, java.util.function.ToIntFunction<JsonNode> value) {
        return new TableColumns.Column(name, "integer", "", 0, description, (o, now) -> value.applyAsInt(o));
    }

    private static String containers(JsonNode object, String field) {
        List<String> values = new ArrayList<>();
        for (JsonNode container : object.path("spec").path("template").path("spec").path("containers")) {
            values.add(container.path(field).asText());
        }
        return String.join(",", values);
    }
}
