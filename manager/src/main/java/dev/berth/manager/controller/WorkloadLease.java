package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.Annotations;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * The dispatch lease of a workload: the manager's default, or a longer one asked for with the
 * annotation berth.dev/lease-duration on the Workload or its Job/JobSet (ISO-8601 or seconds). A
 * shorter or unreadable value is ignored (validation of the annotation rejects it at admission).
 */
final class WorkloadLease {
    private WorkloadLease() {}

    static Duration of(ObjectNode workload, ManagerState state, Duration defaultLease) {
        String value = annotation(workload);
        if (value == null) {
            value = RemoteWorkloads.ownerKey(workload).flatMap(owner -> state.find(owner.resource(), owner.namespace(), owner.name()))
                    .map(WorkloadLease::annotation).orElse(null);
        }
        Duration asked = parse(value);
        return asked != null && asked.compareTo(defaultLease) > 0 ? asked : defaultLease;
    }

    /** The duration an annotation value means, or null when absent or unreadable. */
    static Duration parse(String value) {
        if (value == null || value.isBlank()) return null;
        try {
            return value.chars().allMatch(Character::isDigit) ? Duration.ofSeconds(Long.parseLong(value)) : Duration.parse(value);
        } catch (DateTimeParseException | NumberFormatException unreadable) {
            return null;
        }
    }

    private static String annotation(ObjectNode object) {
        var node = object.path("metadata").path("annotations").path(Annotations.LEASE_DURATION);
        return node.isTextual() ? node.asText() : null;
    }
}
