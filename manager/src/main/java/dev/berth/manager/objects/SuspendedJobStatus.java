package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The status a batch/v1 Job controller writes when a Job is suspended or resumed, for the Job on the
 * manager (which no Job controller runs): the {@code Suspended} condition (JobSuspended / JobResumed),
 * and on suspension no start time and no active pods, as Kueue resets the start time of a job it
 * stops. Everything else is left as the worker last reported it. Pure JSON.
 */
public final class SuspendedJobStatus {
    public static final String SUSPENDED = "Suspended";

    private SuspendedJobStatus() {}

    /** The status of a suspended Job; {@code now} stamps a condition that changes. */
    public static ObjectNode suspended(JsonNode status, Instant now) {
        ObjectNode next = copy(status);
        next.remove("startTime");
        if (next.has("active")) next.put("active", 0);
        if (next.has("ready")) next.put("ready", 0);
        setCondition(next, "True", "JobSuspended", "Job suspended", now);
        return next;
    }

    /** The status of a resumed Job: Suspended=False, when it had the condition. */
    public static ObjectNode resumed(JsonNode status, Instant now) {
        ObjectNode next = copy(status);
        for (JsonNode condition : next.path("conditions")) {
            if (SUSPENDED.equals(condition.path("type").asText())) {
                setCondition(next, "False", "JobResumed", "Job resumed", now);
                break;
            }
        }
        return next;
    }

    private static ObjectNode copy(JsonNode status) {
        return status != null && status.isObject() ? ((ObjectNode) status).deepCopy() : JsonNodeFactory.instance.objectNode();
    }

    private static void setCondition(ObjectNode status, String value, String reason, String message, Instant now) {
        ArrayNode conditions = status.withArray("conditions");
        String time = StatusJson.timestamp(now);
        for (JsonNode existing : conditions) {
            if (!SUSPENDED.equals(existing.path("type").asText())) continue;
            ObjectNode condition = (ObjectNode) existing;
            if (!value.equals(condition.path("status").asText())) condition.put("lastTransitionTime", time);
            condition.put("status", value).put("reason", reason).put("message", message).put("lastProbeTime", time);
            return;
        }
        conditions.addObject().put("type", SUSPENDED).put("status", value).put("lastProbeTime", time)
                .put("lastTransitionTime", time).put("reason", reason).put("message", message);
    }
}
