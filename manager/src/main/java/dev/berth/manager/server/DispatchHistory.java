package dev.berth.manager.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import java.time.Instant;

/**
 * A workload's dispatch attempts, kept in its status as status.dispatchHistory (one entry per
 * attempt: id, number, cluster, outcome, reason, time), so it keeps its history across evictions and
 * redispatches. The number of entries is the number of attempts made.
 */
final class DispatchHistory {
    static final String FIELD = "dispatchHistory";

    private DispatchHistory() {}

    static int count(ObjectNode workload) {
        JsonNode history = workload.path("status").path(FIELD);
        int highest = 0;
        for (JsonNode entry : history) highest = Math.max(highest, entry.path("attempt").asInt(0));
        return highest;
    }

    /** Adds the attempt, or updates its outcome when it is there already. */
    static void record(ManagerState state, WorkloadKey key, String attemptId, String cluster, int number, String outcome,
                       String reason, Instant at) {
        DispatchStatusWriter.updateWorkloadStatus(state, key, status -> {
            ArrayNode history = status.path(FIELD).isArray() ? (ArrayNode) status.get(FIELD) : status.putArray(FIELD);
            ObjectNode entry = null;
            for (JsonNode existing : history) {
                if (attemptId.equals(existing.path("attemptId").asText())) entry = (ObjectNode) existing;
            }
            if (entry == null) {
                entry = history.addObject();
                entry.put("attemptId", attemptId);
                entry.put("attempt", number);
                entry.put("cluster", cluster);
                entry.put("dispatchTime", StatusJson.timestamp(at));
            }
            entry.put("outcome", outcome);
            if (reason != null) entry.put("reason", reason);
            else entry.remove("reason");
            entry.put("lastUpdateTime", StatusJson.timestamp(at));
            while (history.size() > 20) history.remove(0);
        });
    }
}
