package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Table columns kube-apiserver prints for batch/v1 Jobs and core/v1 Pods (its printJob and
 * printPod): a Job's STATUS, COMPLETIONS and DURATION, a Pod's READY, STATUS and RESTARTS, computed
 * from the status Berth mirrors from the worker cluster.
 */
final class JobAndPodColumns {
    private static final String NONE = "<none>";

    private JobAndPodColumns() {}

    static List<TableColumns.Column> job() {
        return List.of(
                column("Name", "name", 0, "Name must be unique within a namespace.", (o, now) -> TableColumns.text(o, "metadata.name")),
                column("Status", "", 0, "Status of the job.", (o, now) -> jobStatus(o)),
                column("Completions", "", 0, "The number of pods that have successfully completed out of the desired number.",
                        (o, now) -> completions(o)),
                column("Duration", "", 0, "Time required to complete the job.", JobAndPodColumns::duration),
                column("Age", "", 0, "Time since creation", (o, now) -> since(TableColumns.text(o, "metadata.creationTimestamp"), now)),
                column("Containers", "", 1, "Names of each container in the template.", (o, now) -> containers(o, "name")),
                column("Images", "", 1, "Images referenced by each container in the template.", (o, now) -> containers(o, "image")),
                column("Selector", "", 1, "Selector used to select pods of this job.", (o, now) -> selector(o.path("spec").path("selector"))));
    }

    static List<TableColumns.Column> pod() {
        return List.of(
                column("Name", "name", 0, "Name must be unique within a namespace.", (o, now) -> TableColumns.text(o, "metadata.name")),
                column("Ready", "", 0, "The aggregate readiness state of this pod for accepting traffic.", (o, now) -> PodSummary.of(o).ready()),
                column("Status", "", 0, "The aggregate status of the containers in this pod.", (o, now) -> PodSummary.of(o).status()),
                column("Restarts", "", 0, "The number of times the containers in this pod have been restarted.",
                        (o, now) -> String.valueOf(PodSummary.of(o).restarts())),
                column("Age", "", 0, "Time since creation", (o, now) -> since(TableColumns.text(o, "metadata.creationTimestamp"), now)),
                column("IP", "", 1, "IP address assigned to the pod", (o, now) -> orNone(TableColumns.text(o, "status.podIP"))),
                column("Node", "", 1, "Name of the node assigned to the pod", (o, now) -> orNone(TableColumns.text(o, "spec.nodeName"))),
                column("Nominated Node", "", 1, "Name of the node nominated for the pod",
                        (o, now) -> orNone(TableColumns.text(o, "status.nominatedNodeName"))),
                column("Readiness Gates", "", 1, "Pod readiness gates", (o, now) -> PodSummary.of(o).readinessGates()));
    }

    /** printJob's order: Complete, Failed, Terminating, Suspended, FailureTarget, SuccessCriteriaMet, else Running. */
    static String jobStatus(JsonNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        if (isTrue(conditions, "Complete")) return "Complete";
        if (isTrue(conditions, "Failed")) return "Failed";
        if (!TableColumns.text(job, "metadata.deletionTimestamp").isEmpty()) return "Terminating";
        if (isTrue(conditions, "Suspended")) return "Suspended";
        if (isTrue(conditions, "FailureTarget")) return "FailureTarget";
        if (isTrue(conditions, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
        return "Running";
    }

    static String completions(JsonNode job) {
        long succeeded = job.path("status").path("succeeded").asLong(0);
        JsonNode completions = job.path("spec").path("completions");
        if (completions.isNumber()) return succeeded + "/" + completions.asLong();
        long parallelism = job.path("spec").path("parallelism").asLong(0);
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    private static String duration(JsonNode job, Instant now) {
        Instant start = instant(TableColumns.text(job, "status.startTime"));
        if (start == null) return "";
        Instant completion = instant(TableColumns.text(job, "status.completionTime"));
        return HumanDuration.of(Duration.between(start, completion == null ? now : completion));
    }

    private static String containers(JsonNode job, String field) {
        List<String> values = new ArrayList<>();
        for (JsonNode container : job.path("spec").path("template").path("spec").path("containers")) {
            values.add(container.path(field).asText(""));
        }
        return String.join(",", values);
    }

    /** metav1.FormatLabelSelector: matchLabels as k=v, then expressions; "<none>" when empty. */
    static String selector(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        selector.path("matchLabels").properties().forEach(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText();
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            switch (expression.path("operator").asText()) {
                case "In" -> parts.add(key + " in (" + String.join(",", values) + ")");
                case "NotIn" -> parts.add(key + " notin (" + String.join(",", values) + ")");
                case "Exists" -> parts.add(key);
                case "DoesNotExist" -> parts.add("!" + key);
                default -> parts.add(key + " " + expression.path("operator").asText());
            }
        }
        return parts.isEmpty() ? NONE : String.join(",", parts);
    }

    private static boolean isTrue(JsonNode conditions, String type) {
        for (JsonNode condition : conditions) {
            if (condition.path("type").asText().equals(type) && condition.path("status").asText().equals("True")) return true;
        }
        return false;
    }

    private static String orNone(String value) {
        return value.isEmpty() ? NONE : value;
    }

    private static Instant instant(String timestamp) {
        if (timestamp.isEmpty()) return null;
        try {
            return Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String since(String timestamp, Instant now) {
        Instant then = instant(timestamp);
        return then == null ? "<unknown>" : HumanDuration.of(Duration.between(then, now));
    }

    private static TableColumns.Column column(String name, String format, int priority, String description,
                                              java.util.function.BiFunction<JsonNode, Instant, Object> cell) {
        return new TableColumns.Column(name, "string", format, priority, description, cell);
    }
}
