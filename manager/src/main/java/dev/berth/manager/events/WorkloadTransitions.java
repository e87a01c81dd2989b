package dev.berth.manager.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Events;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which events a workload's status change deserves, with Kueue's reasons and messages: a condition
 * turning True (QuotaReserved, Admitted, Preempted, Evicted, Finished) or a new pending message.
 * Pure: the previous status is the stored JSON, the next one the controller's.
 */
final class WorkloadTransitions {
    private WorkloadTransitions() {}

    /** previousStatus: the stored {@code status} (missing for a new workload). */
    static List<WorkloadEvent> between(JsonNode previousStatus, WorkloadStatus next, Instant now) {
        List<WorkloadEvent> events = new ArrayList<>();
        if (becameTrue(previousStatus, next, Conditions.QUOTA_RESERVED)) {
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.QUOTA_RESERVED, next.condition(Conditions.QUOTA_RESERVED).message()));
        }
        if (becameTrue(previousStatus, next, Conditions.ADMITTED)) {
            Condition reserved = next.condition(Conditions.QUOTA_RESERVED);
            long wait = reserved == null ? 0 : Math.max(0, Duration.between(reserved.lastTransitionTime(), now).getSeconds());
            String queue = next.admission() == null ? "" : next.admission().clusterQueue();
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.ADMITTED,
                    "Admitted by ClusterQueue " + queue + ", wait time since reservation was " + wait + "s"));
        }
        if (becameTrue(previousStatus, next, Conditions.PREEMPTED)) {
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.PREEMPTED, next.condition(Conditions.PREEMPTED).message()));
        } else if (becameTrue(previousStatus, next, Conditions.EVICTED)) {
            Condition evicted = next.condition(Conditions.EVICTED);
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.EVICTED, evicted.reason() + ": " + evicted.message()));
        }
        if (becameTrue(previousStatus, next, Conditions.FINISHED)) {
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.FINISHED, next.condition(Conditions.FINISHED).message()));
        }
        boolean evictedNow = !events.isEmpty() && events.get(events.size() - 1).reason().matches("Preempted|Evicted");
        Condition reserved = next.condition(Conditions.QUOTA_RESERVED);
        if (reserved != null && !evictedNow && !reserved.status() && Conditions.Reasons.PENDING.equals(reserved.reason())
                && !reserved.message().equals(message(previousStatus, Conditions.QUOTA_RESERVED))) {
            events.add(new WorkloadEvent(Events.WARNING, Events.Reasons.PENDING, reserved.message()));
        }
        return events;
    }

    static boolean becameTrue(JsonNode previousStatus, WorkloadStatus next, String type) {
        return next.isTrue(type) && !"True".equals(field(previousStatus, type, "status"));
    }

    private static String message(JsonNode previousStatus, String type) {
        return field(previousStatus, type, "message");
    }

    private static String field(JsonNode status, String type, String field) {
        if (status == null) return "";
        for (JsonNode condition : status.path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path(field).asText("");
        }
        return "";
    }
}
