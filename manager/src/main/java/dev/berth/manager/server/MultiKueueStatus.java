package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;

/** Writes the Active condition of MultiKueueClusters and AdmissionChecks, as Kueue reports it. */
final class MultiKueueStatus {
    private final ManagerState state;
    private final Clock clock;

    MultiKueueStatus(ManagerState state, Clock clock) {
        this.state = state;
        this.clock = clock;
    }

    void clusterActive(String cluster, boolean active, String message) {
        write(new ObjectKey(Resources.MULTIKUEUE_CLUSTERS.resource(), "", cluster), active,
                active ? Conditions.Reasons.CONNECTED : Conditions.Reasons.CLIENT_CONNECTION_FAILED, message);
    }

    void admissionCheckActive(String check, boolean active, String message) {
        write(new ObjectKey(Resources.ADMISSION_CHECKS.resource(), "", check), active,
                active ? Conditions.Reasons.ACTIVE : Conditions.Reasons.BAD_CONFIG, message);
    }

    private void write(ObjectKey key, boolean active, String reason, String message) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        ObjectNode condition = status.putArray("conditions").addObject();
        condition.put("type", Conditions.ACTIVE);
        condition.put("status", active ? "True" : "False");
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", StatusJson.timestamp(clock.instant()));
        try {
            state.store.replaceStatus(key, status, null);
        } catch (NotFoundException deleted) {
            // deleted meanwhile
        }
    }
}
