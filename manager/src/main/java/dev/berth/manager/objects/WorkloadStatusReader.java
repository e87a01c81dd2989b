package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.InvalidQuantityException;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.manager.model.Quantity;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.KueueApi;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses a Workload's status JSON; every problem becomes a cause under {@code status.}, reported together. */
final class WorkloadStatusReader {
    private static final List<String> CHECK_STATES = List.of(
            Conditions.CheckStates.PENDING, Conditions.CheckStates.READY,
            Conditions.CheckStates.RETRY, Conditions.CheckStates.REJECTED);
    private static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

    private final List<FieldCause> causes = new ArrayList<>();

    private WorkloadStatusReader() {}

    static WorkloadStatus read(ObjectNode status) {
        WorkloadStatusReader reader = new WorkloadStatusReader();
        List<Condition> conditions = reader.conditions(status.path("conditions"), "status.conditions");
        Admission admission = reader.admission(status.path("admission"), "status.admission");
        List<AdmissionCheckState> checks = reader.checks(status.path("admissionChecks"), "status.admissionChecks");
        int requeueCount = reader.integer(status.path("requeueState").path("count"), "status.requeueState.count");
        java.time.Instant requeueAt = reader.time(status.path("requeueState").path("requeueAt"), "status.requeueState.requeueAt");
        JsonNode accumulated = status.path("accumulatedPastExecutionTimeSeconds");
        Long accumulatedSeconds = accumulated.isMissingNode() || accumulated.isNull() ? null
                : (long) reader.integer(accumulated, "status.accumulatedPastExecutionTimeSeconds");
        if (!reader.causes.isEmpty()) throw InvalidObjectException.invalid(KueueApi.WORKLOAD, "", reader.causes);
        return new WorkloadStatus(conditions, admission, checks, requeueCount, requeueAt, accumulatedSeconds);
    }

    private List<Condition> conditions(JsonNode array, String path) {
        List<Condition> conditions = new ArrayList<>();
        if (!isArray(array, path)) return conditions;
        for (int i = 0; i < array.size(); i++) {
            String itemPath = path + "[" + i + "]";
            JsonNode entry = array.get(i);
            String type = requiredText(entry, "type", itemPath);
            String status = requiredText(entry, "status", itemPath);
            if (status != null && !CONDITION_STATUSES.contains(status)) {
                causes.add(FieldCause.notSupported(itemPath + ".status", status, CONDITION_STATUSES));
            }
            conditions.add(new Condition(type, "True".equals(status), optionalText(entry, "reason", itemPath),
                    optionalText(entry, "message", itemPath), time(entry.path("lastTransitionTime"), itemPath + ".lastTransitionTime")));
        }
        return conditions;
    }

    private Admission admission(JsonNode admission, String path) {
        if (admission.isMissingNode() || admission.isNull()) return null;
        if (!admission.isObject()) {
            causes.add(FieldCause.invalid(path, "must be an object"));
            return null;
        }
        String clusterQueue = requiredText(admission, "clusterQueue", path);
        List<PodSetAssignment> assignments = new ArrayList<>();
        JsonNode array = admission.path("podSetAssignments");
        String arrayPath = path + ".podSetAssignments";
        if (isArray(array, arrayPath)) {
            for (int i = 0; i < array.size(); i++) {
                String itemPath = arrayPath + "[" + i + "]";
                JsonNode entry = array.get(i);
                Map<String, String> flavors = new LinkedHashMap<>();
                Map<String, Long> usage = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> flavor : fields(entry.path("flavors"), itemPath + ".flavors")) {
                    if (flavor.getValue().isTextual()) flavors.put(flavor.getKey(), flavor.getValue().textValue());
                    else causes.add(FieldCause.invalid(itemPath + ".flavors[" + flavor.getKey() + "]", "must be a string"));
                }
                for (Map.Entry<String, JsonNode> used : fields(entry.path("resourceUsage"), itemPath + ".resourceUsage")) {
                    Long amount = quantity(used.getKey(), used.getValue(), itemPath + ".resourceUsage[" + used.getKey() + "]");
                    if (amount != null) usage.put(used.getKey(), amount);
                }
                assignments.add(new PodSetAssignment(requiredText(entry, "name", itemPath), flavors, usage,
                        integer(entry.path("count"), itemPath + ".count")));
            }
        }
        return new Admission(clusterQueue, assignments);
    }

    private List<AdmissionCheckState> checks(JsonNode array, String path) {
        List<AdmissionCheckState> checks = new ArrayList<>();
        if (!isArray(array, path)) return checks;
        for (int i = 0; i < array.size(); i++) {
            String itemPath = path + "[" + i + "]";
            JsonNode entry = array.get(i);
            String state = requiredText(entry, "state", itemPath);
            if (state != null && !CHECK_STATES.contains(state)) {
                causes.add(FieldCause.notSupported(itemPath + ".state", state, CHECK_STATES));
            }
            JsonNode requeueAfter = entry.path("requeueAfterSeconds");
            Integer requeueAfterSeconds = requeueAfter.isMissingNode() || requeueAfter.isNull() ? null
                    : integer(requeueAfter, itemPath + ".requeueAfterSeconds");
            checks.add(new AdmissionCheckState(requiredText(entry, "name", itemPath), state,
                    optionalText(entry, "message", itemPath), time(entry.path("lastTransitionTime"), itemPath + ".lastTransitionTime"),
                    integer(entry.path("retryCount"), itemPath + ".retryCount"), requeueAfterSeconds));
        }
        return checks;
    }

    private boolean isArray(JsonNode node, String path) {
        if (node.isMissingNode() || node.isNull()) return false;
        if (node.isArray()) return true;
        causes.add(FieldCause.invalid(path, "must be a list"));
        return false;
    }

    private Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node, String path) {
        if (node.isMissingNode() || node.isNull()) return List.of();
        if (!node.isObject()) {
            causes.add(FieldCause.invalid(path, "must be a map"));
            return List.of();
        }
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) entries.add(it.next());
        return entries;
    }

    private String requiredText(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.path(field);
        if (value.isTextual() && !value.textValue().isEmpty()) return value.textValue();
        if (value.isMissingNode() || value.isNull() || value.isTextual()) causes.add(FieldCause.required(parentPath + "." + field));
        else causes.add(FieldCause.invalid(parentPath + "." + field, "Invalid value: " + value + ": must be a string"));
        return null;
    }

    private String optionalText(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.path(field);
        if (value.isMissingNode() || value.isNull()) return null;
        if (value.isTextual()) return value.textValue();
        causes.add(FieldCause.invalid(parentPath + "." + field, "Invalid value: " + value + ": must be a string"));
        return null;
    }

    private int integer(JsonNode value, String path) {
        if (value.isMissingNode() || value.isNull()) return 0;
        if (value.isIntegralNumber() && value.canConvertToInt() && value.intValue() >= 0) return value.intValue();
        causes.add(FieldCause.invalid(path, "Invalid value: " + value + ": must be a non-negative integer"));
        return 0;
    }

    private Long quantity(String resource, JsonNode value, String path) {
        String text = value.isNumber() ? value.decimalValue().toPlainString() : value.isTextual() ? value.textValue() : null;
        if (text == null) {
            causes.add(FieldCause.invalid(path, "Invalid value: " + value + ": must be a quantity"));
            return null;
        }
        try {
            return Quantity.amount(resource, text);
        } catch (InvalidQuantityException e) {
            causes.add(FieldCause.invalid(path, "Invalid value: \"" + text + "\": " + e.getMessage()));
            return null;
        }
    }

    private Instant time(JsonNode value, String path) {
        if (value.isMissingNode() || value.isNull()) return null;
        if (value.isTextual()) {
            try {
                return OffsetDateTime.parse(value.textValue()).toInstant();
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        causes.add(FieldCause.invalid(path, "Invalid value: " + value + ": must be an RFC 3339 date-time"));
        return null;
    }
}
