package dev.berth.manager.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.Events;
import java.util.ArrayList;
import java.util.List;

/**
 * What Kueue's job reconciler does to the job that owns a workload when the workload's status
 * changes: it unsuspends the job once the workload is admitted ({@code Started}), suspends it again
 * when the workload is evicted or loses its admission ({@code Stopped}), says when the workload is
 * finished ({@code FinishedWorkload}), and, while the job waits with quota reserved, repeats the
 * pending admission checks' messages ({@code UpdatedAdmissionCheck}). Pure.
 */
public final class JobTransitions {
    /** The job's next {@code spec.suspend} (null: leave it) and the events to record on the job. */
    public record FollowUp(Boolean suspend, List<WorkloadEvent> events) {}

    private JobTransitions() {}

    /**
     * @param workload "namespace/name" of the workload
     * @param previousStatus the workload's stored status before the change (missing for a new one)
     * @param jobSuspended the job's {@code spec.suspend} now
     */
    public static FollowUp follow(String workload, JsonNode previousStatus, WorkloadStatus next, boolean jobSuspended) {
        List<WorkloadEvent> events = new ArrayList<>();
        if (next.isTrue(Conditions.FINISHED)) {
            if (WorkloadTransitions.becameTrue(previousStatus, next, Conditions.FINISHED)) {
                events.add(new WorkloadEvent(Events.NORMAL, Events.JobReasons.FINISHED_WORKLOAD,
                        "Workload '" + workload + "' is declared finished"));
            }
            return new FollowUp(null, events);
        }
        boolean evicted = next.isTrue(Conditions.EVICTED);
        if (!evicted && next.isTrue(Conditions.ADMITTED)) {
            if (!jobSuspended) return new FollowUp(null, events);
            String queue = next.admission() == null ? "" : next.admission().clusterQueue();
            events.add(new WorkloadEvent(Events.NORMAL, Events.JobReasons.STARTED, "Admitted by clusterQueue " + queue));
            return new FollowUp(false, events);
        }
        if (!jobSuspended) {
            String message = evicted ? next.condition(Conditions.EVICTED).message() : "Not admitted by cluster queue";
            events.add(new WorkloadEvent(Events.NORMAL, Events.JobReasons.STOPPED, message));
            return new FollowUp(true, events);
        }
        if (next.isTrue(Conditions.QUOTA_RESERVED)) {
            String checks = pendingChecks(next);
            if (!checks.isEmpty() && !checks.equals(pendingChecks(previousStatus))) {
                events.add(new WorkloadEvent(Events.NORMAL, Events.JobReasons.UPDATED_ADMISSION_CHECK, checks));
            }
        }
        return new FollowUp(null, events);
    }

    /** "name: message; name: message" over the pending checks with a message, as Kueue joins them. */
    static String pendingChecks(WorkloadStatus status) {
        List<String> parts = new ArrayList<>();
        for (AdmissionCheckState check : status.admissionChecks()) {
            if (CheckStates.PENDING.equals(check.state()) && check.message() != null && !check.message().isEmpty()) {
                parts.add(check.name() + ": " + check.message());
            }
        }
        return String.join("; ", parts);
    }

    private static String pendingChecks(JsonNode status) {
        List<String> parts = new ArrayList<>();
        if (status == null) return "";
        for (JsonNode check : status.path("admissionChecks")) {
            String message = check.path("message").asText("");
            if (CheckStates.PENDING.equals(check.path("state").asText()) && !message.isEmpty()) {
                parts.add(check.path("name").asText() + ": " + message);
            }
        }
        return String.join("; ", parts);
    }
}
