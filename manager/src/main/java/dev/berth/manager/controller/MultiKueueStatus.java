package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.util.Optional;

/**
 * Writes the conditions of MultiKueueClusters and AdmissionChecks: Kueue's Active, and on clusters
 * Berth's berth.dev/Healthy and berth.dev/Cordoned. Each write replaces one condition type and keeps
 * the others; lastTransitionTime moves only when the status flips.
 */
final class MultiKueueStatus {
    private final ManagerState state;
    private final Clock clock;

    MultiKueueStatus(ManagerState state, Clock clock) {
        this.state = state;
        this.clock = clock;
    }

    void clusterActive(String cluster, boolean active, String message) {
        write(clusterKey(cluster), Conditions.ACTIVE, active,
                active ? Conditions.Reasons.CONNECTED : Conditions.Reasons.CLIENT_CONNECTION_FAILED, message);
    }

    void clusterCondition(String cluster, String type, boolean status, String reason, String message) {
        write(clusterKey(cluster), type, status, reason, message);
    }

    void admissionCheckActive(String check, boolean active, String message) {
        write(new ObjectKey(Resources.ADMISSION_CHECKS.resource(), "", check), Conditions.ACTIVE, active,
                active ? Conditions.Reasons.ACTIVE : Conditions.Reasons.BAD_CONFIG, message);
    }

    /** The Active condition with the reason the check's controller uses (Kueue's provisioning check: BadParametersRef). */
    void admissionCheckActive(String check, boolean active, String inactiveReason, String message) {
        write(new ObjectKey(Resources.ADMISSION_CHECKS.resource(), "", check), Conditions.ACTIVE, active,
                active ? Conditions.Reasons.ACTIVE : inactiveReason, message);
    }

    private static ObjectKey clusterKey(String cluster) {
        return new ObjectKey(Resources.MULTIKUEUE_CLUSTERS.resource(), "", cluster);
    }

    private void write(ObjectKey key, String type, boolean value, String reason, String message) {
        Optional<StoredObject> stored = state.store.get(key);
        if (stored.isEmpty()) return;
        ObjectNode status = stored.get().object().path("status").isObject() ? (ObjectNode) stored.get().object().get("status").deepCopy()
                : JsonNodeFactory.instance.objectNode();
        ArrayNode conditions = status.path("conditions").isArray() ? (ArrayNode) status.get("conditions") : status.putArray("conditions");
        ObjectNode condition = null;
        for (JsonNode existing : conditions) {
            if (type.equals(existing.path("type").asText())) condition = (ObjectNode) existing;
        }
        String statusValue = value ? "True" : "False";
        if (condition == null) {
            // Kueue's Active condition comes first, as clients written for Kueue expect
            condition = Conditions.ACTIVE.equals(type) ? conditions.insertObject(0) : conditions.addObject();
            condition.put("type", type);
        } else if (statusValue.equals(condition.path("status").asText()) && reason.equals(condition.path("reason").asText())
                && message.equals(condition.path("message").asText())) {
            return;
        }
        if (!statusValue.equals(condition.path("status").asText()) || !condition.has("lastTransitionTime")) {
            condition.put("lastTransitionTime", StatusJson.timestamp(clock.instant()));
        }
        condition.put("status", statusValue);
        condition.put("reason", reason);
        condition.put("message", message);
        try {
            state.store.replaceStatus(key, status, null);
        } catch (NotFoundException deleted) {
            // deleted meanwhile
        }
    }
}
