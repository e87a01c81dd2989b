package dev.berth.manager.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which events a ClusterQueue or LocalQueue deserves, so that {@code kubectl describe} of a queue
 * shows its history: a workload in it got quota, was admitted, preempted or evicted; the queue
 * stopped admitting (stopPolicy, a missing flavor or check) or started again. Pure: previous
 * statuses are the stored JSON, the next ones the controller's.
 */
final class QueueTransitions {
    private QueueTransitions() {}

    /** Events for the queues a workload is in, from its status change; workload is "namespace/name". */
    static List<WorkloadEvent> forWorkload(String workload, JsonNode previousStatus, WorkloadStatus next) {
        List<WorkloadEvent> events = new ArrayList<>();
        // One event per admission on the queue (each is a write): QuotaReserved only while admission checks are pending.
        if (WorkloadTransitions.becameTrue(previousStatus, next, Conditions.ADMITTED)) {
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.ADMITTED, "Admitted workload " + workload));
        } else if (WorkloadTransitions.becameTrue(previousStatus, next, Conditions.QUOTA_RESERVED)) {
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.QUOTA_RESERVED, "Quota reserved for workload " + workload));
        }
        if (WorkloadTransitions.becameTrue(previousStatus, next, Conditions.PREEMPTED)) {
            Condition preempted = next.condition(Conditions.PREEMPTED);
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.PREEMPTED,
                    "Preempted workload " + workload + " (" + preempted.reason() + "): " + preempted.message()));
        } else if (WorkloadTransitions.becameTrue(previousStatus, next, Conditions.EVICTED)) {
            Condition evicted = next.condition(Conditions.EVICTED);
            events.add(new WorkloadEvent(Events.NORMAL, Events.Reasons.EVICTED,
                    "Evicted workload " + workload + " (" + evicted.reason() + "): " + evicted.message()));
        }
        return events;
    }

    /**
     * An event when the queue's Active condition changed (status or reason), or when a new queue
     * starts out inactive. stopPolicy is the queue's spec.stopPolicy ("" when unset).
     */
    static Optional<WorkloadEvent> activity(JsonNode previousStatus, QueueStatus next, String stopPolicy) {
        Condition active = null;
        for (Condition condition : next.conditions()) {
            if (condition.type().equals(Conditions.ACTIVE)) active = condition;
        }
        if (active == null) return Optional.empty();
        JsonNode before = null;
        for (JsonNode condition : previousStatus.path("conditions")) {
            if (condition.path("type").asText().equals(Conditions.ACTIVE)) before = condition;
        }
        String status = active.status() ? "True" : "False";
        if (before == null && active.status()) return Optional.empty();
        if (before != null && before.path("status").asText().equals(status) && before.path("reason").asText().equals(active.reason())) {
            return Optional.empty();
        }
        String message = active.message();
        if (Conditions.Reasons.STOPPED.equals(active.reason()) && !stopPolicy.isEmpty()) message += " (stopPolicy " + stopPolicy + ")";
        if (active.status() && before != null) message += " (was " + before.path("reason").asText() + ")";
        return Optional.of(new WorkloadEvent(active.status() ? Events.NORMAL : Events.WARNING, active.reason(), message));
    }
}
