package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.protocol.KueueApi;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The columns of each kind's Table, after Kueue's CRD printer columns (and the API server's own
 * printers for core kinds). priority 1 columns appear only with {@code -o wide}.
 */
final class TableColumns {
    private TableColumns() {}

    /** One column: how to compute its cell from an object at a given instant. */
    record Column(String name, String type, String format, int priority, String description,
                  BiFunction<JsonNode, Instant, Object> cell) {}

    static List<Column> of(String group, String kind) {
        if (group.equals(KueueApi.GROUP)) {
            switch (kind) {
                case KueueApi.CLUSTER_QUEUE -> {
                    return List.of(name(), new Column("Cohort", "string", "", 0, ".spec.cohortName",
                            (o, now) -> text(o, "spec.cohortName").isEmpty() ? text(o, "spec.cohort") : text(o, "spec.cohortName")), wide(text("Strategy", "spec.queueingStrategy")),
                            wide(new Column("Flavors", "string", "", 1, "Flavors of the resource groups", (o, now) -> flavors(o))),
                            number("Pending Workloads", "status.pendingWorkloads"), number("Admitted Workloads", "status.admittedWorkloads"));
                }
                case KueueApi.LOCAL_QUEUE -> {
                    return List.of(name(), text("ClusterQueue", "spec.clusterQueue"),
                            number("Pending Workloads", "status.pendingWorkloads"), number("Admitted Workloads", "status.admittedWorkloads"));
                }
                case KueueApi.WORKLOAD -> {
                    return List.of(name(), text("Queue", "spec.queueName"), text("Reserved in", "status.admission.clusterQueue"),
                            condition("Admitted"), condition("Finished"), age());
                }
                default -> { }
            }
        }
        if (group.equals("batch") && kind.equals("Job")) return JobAndPodColumns.job();
        var kubeflow = dev.berth.protocol.KubeflowJobKind.of(kind).filter(k -> k.group().equals(group));
        if (kubeflow.isPresent()) return KubeflowJobColumns.of(kubeflow.get());
        if (group.equals(dev.berth.protocol.RayApi.GROUP) && dev.berth.protocol.RayApi.of(kind).isPresent()) return RayColumns.of(kind);
        if (group.equals(dev.berth.protocol.TrainerApi.GROUP) && kind.equals(dev.berth.protocol.TrainerApi.TRAIN_JOB)) return TrainJobColumns.of();
        if (group.equals(dev.berth.protocol.AppWrapperApi.GROUP) && kind.equals(dev.berth.protocol.AppWrapperApi.KIND)) return AppWrapperColumns.of();
        var serving = dev.berth.protocol.ServingKind.of(kind).filter(k -> k.group().equals(group));
        if (serving.isPresent()) return ServingColumns.of(serving.get());
        if (group.isEmpty() && kind.equals("Pod")) return JobAndPodColumns.pod();
        if (group.isEmpty() && kind.equals("Event")) {
            return List.of(
                    new Column("Last Seen", "string", "", 0, "Time since the event was last seen",
                            (o, now) -> since(text(o, "lastTimestamp").isEmpty() ? text(o, "eventTime") : text(o, "lastTimestamp"), now)),
                    text("Type", "type"), text("Reason", "reason"),
                    new Column("Object", "string", "", 0, "The object the event is about",
                            (o, now) -> text(o, "involvedObject.kind").toLowerCase() + "/" + text(o, "involvedObject.name")),
                    text("Message", "message"));
        }
        if (group.isEmpty() && kind.equals(KueueApi.NAMESPACE)) {
            return List.of(name(), new Column("Status", "string", "", 0, "The status of the namespace",
                    (o, now) -> text(o, "status.phase").isEmpty() ? NamespaceLifecycle.PHASE_ACTIVE : text(o, "status.phase")), age());
        }
        return List.of(name(), age());
    }

    private static Column name() {
        return new Column("Name", "string", "name", 0, "Name must be unique within a namespace.", (o, now) -> text(o, "metadata.name"));
    }

    static Column nameColumn() {
        return name();
    }

    static Column ageColumn() {
        return age();
    }

    private static Column age() {
        return new Column("Age", "string", "", 0, "Time since creation", (o, now) -> since(text(o, "metadata.creationTimestamp"), now));
    }

    private static Column text(String name, String path) {
        return new Column(name, "string", "", 0, "." + path, (o, now) -> text(o, path));
    }

    private static Column number(String name, String path) {
        return new Column(name, "integer", "", 0, "." + path, (o, now) -> {
            JsonNode value = at(o, path);
            return value.isNumber() ? value.asLong() : null;
        });
    }

    private static Column wide(Column column) {
        return new Column(column.name(), column.type(), column.format(), 1, column.description(), column.cell());
    }

    private static Column condition(String type) {
        return new Column(type, "string", "", 0, ".status.conditions[?(@.type=='" + type + "')].status", (o, now) -> {
            for (JsonNode condition : at(o, "status.conditions")) {
                if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
            }
            return "";
        });
    }

    private static String flavors(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (JsonNode group : at(object, "spec.resourceGroups")) {
            for (JsonNode flavor : group.path("flavors")) names.add(flavor.path("name").asText());
        }
        return String.join(",", names);
    }

    private static String since(String timestamp, Instant now) {
        if (timestamp.isEmpty()) return "<unknown>";
        try {
            return HumanDuration.of(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    static String text(JsonNode object, String path) {
        JsonNode value = at(object, path);
        return value.isValueNode() ? value.asText() : "";
    }

    private static JsonNode at(JsonNode object, String path) {
        JsonNode node = object;
        for (String segment : path.split("\\.")) node = node.path(segment);
        return node;
    }
}
