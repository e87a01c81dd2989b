package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.CohortStatus;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.FlavorUsage;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.manager.model.Quantity;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The core's status records in Kueue's v1beta2 status schema, and back. */
public final class StatusJson {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private StatusJson() {}

    /** A Workload's status; parts that are absent (no admission, no checks, never requeued) are omitted. */
    public static ObjectNode workloadStatus(WorkloadStatus status) {
        ObjectNode json = JSON.objectNode();
        if (!status.conditions().isEmpty()) json.set("conditions", conditions(status.conditions()));
        if (status.admission() != null) json.set("admission", admission(status.admission()));
        if (!status.admissionChecks().isEmpty()) {
            ArrayNode checks = json.putArray("admissionChecks");
            for (AdmissionCheckState check : status.admissionChecks()) {
                ObjectNode entry = checks.addObject();
                entry.put("name", check.name());
                entry.put("state", check.state());
                if (check.message() != null) entry.put("message", check.message());
                if (check.lastTransitionTime() != null) entry.put("lastTransitionTime", timestamp(check.lastTransitionTime()));
                if (check.retryCount() > 0) entry.put("retryCount", check.retryCount());
                if (check.requeueAfterSeconds() != null) entry.put("requeueAfterSeconds", check.requeueAfterSeconds());
            }
        }
        if (status.requeueCount() > 0 || status.requeueAt() != null) {
            ObjectNode requeueState = json.putObject("requeueState");
            if (status.requeueCount() > 0) requeueState.put("count", status.requeueCount());
            if (status.requeueAt() != null) requeueState.put("requeueAt", timestamp(status.requeueAt()));
        }
        if (status.accumulatedPastExecutionTimeSeconds() != null) {
            json.put("accumulatedPastExecutionTimeSeconds", status.accumulatedPastExecutionTimeSeconds());
        }
        return json;
    }

    /**
     * The inverse of {@link #workloadStatus}: lenient about missing parts, strict (422 with field
     * paths under {@code status.}) about wrong types and unknown admission check states.
     */
    public static WorkloadStatus parseWorkloadStatus(ObjectNode status) {
        return WorkloadStatusReader.read(status);
    }

    /** A ClusterQueue's or LocalQueue's status. */
    public static ObjectNode queueStatus(QueueStatus status) {
        ObjectNode json = JSON.objectNode();
        json.put("pendingWorkloads", status.pendingWorkloads());
        json.put("reservingWorkloads", status.reservingWorkloads());
        json.put("admittedWorkloads", status.admittedWorkloads());
        json.set("flavorsReservation", flavorUsages(status.flavorsReservation()));
        json.set("flavorsUsage", flavorUsages(status.flavorsUsage()));
        json.set("conditions", conditions(status.conditions()));
        if (status.admissionFairSharing() != null) {
            ObjectNode afs = json.putObject("fairSharing").putObject("admissionFairSharingStatus");
            ObjectNode consumed = afs.putObject("consumedResources");
            status.admissionFairSharing().consumedResources().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(used -> consumed.put(used.getKey(), Quantity.format(used.getKey(), used.getValue())));
            afs.put("lastUpdate", timestamp(status.admissionFairSharing().lastUpdate()));
        }
        if (status.weightedShare() != null) json.with("fairSharing").put("weightedShare", status.weightedShare());
        return json;
    }

    /** A LocalQueue's status: as {@link #queueStatus}, but its flavor usage has no {@code borrowed} (Kueue's LocalQueueResourceUsage). */
    public static ObjectNode localQueueStatus(QueueStatus status) {
        ObjectNode json = queueStatus(status);
        for (String field : List.of("flavorsReservation", "flavorsUsage")) {
            for (com.fasterxml.jackson.databind.JsonNode flavor : json.path(field)) {
                for (com.fasterxml.jackson.databind.JsonNode resource : flavor.path("resources")) ((ObjectNode) resource).remove("borrowed");
            }
        }
        return json;
    }

    /** A Cohort's status: {@code fairSharing.weightedShare} while fair sharing is on, else empty. */
    public static ObjectNode cohortStatus(CohortStatus status) {
        ObjectNode json = JSON.objectNode();
        if (status.weightedShare() != null) json.putObject("fairSharing").put("weightedShare", status.weightedShare());
        return json;
    }

    /** RFC 3339 in UTC at seconds precision, as metav1.Time serializes: {@code 2026-01-02T03:04:05Z}. */
    public static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static ArrayNode conditions(List<Condition> conditions) {
        ArrayNode array = JSON.arrayNode();
        for (Condition condition : conditions) {
            ObjectNode entry = array.addObject();
            entry.put("type", condition.type());
            entry.put("status", condition.status() ? "True" : "False");
            if (condition.reason() != null) entry.put("reason", condition.reason());
            if (condition.message() != null) entry.put("message", condition.message());
            if (condition.lastTransitionTime() != null) entry.put("lastTransitionTime", timestamp(condition.lastTransitionTime()));
        }
        return array;
    }

    private static ObjectNode admission(Admission admission) {
        ObjectNode json = JSON.objectNode();
        json.put("clusterQueue", admission.clusterQueue());
        ArrayNode assignments = json.putArray("podSetAssignments");
        for (PodSetAssignment assignment : admission.podSetAssignments()) {
            ObjectNode entry = assignments.addObject();
            entry.put("name", assignment.name());
            ObjectNode flavors = entry.putObject("flavors");
            new TreeMap<>(assignment.flavors()).forEach(flavors::put);
            ObjectNode usage = entry.putObject("resourceUsage");
            for (Map.Entry<String, Long> used : new TreeMap<>(assignment.resourceUsage()).entrySet()) {
                usage.put(used.getKey(), Quantity.format(used.getKey(), used.getValue()));
            }
            entry.put("count", assignment.count());
        }
        return json;
    }

    private static ArrayNode flavorUsages(List<FlavorUsage> usages) {
        ArrayNode array = JSON.arrayNode();
        for (FlavorUsage usage : usages) {
            ObjectNode flavor = array.addObject();
            flavor.put("name", usage.flavor());
            ArrayNode resources = flavor.putArray("resources");
            for (FlavorUsage.ResourceUsage resource : usage.resources()) {
                ObjectNode entry = resources.addObject();
                entry.put("name", resource.resource());
                entry.put("total", Quantity.format(resource.resource(), resource.total()));
                entry.put("borrowed", Quantity.format(resource.resource(), resource.borrowed()));
            }
        }
        return array;
    }
}
