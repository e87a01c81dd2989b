package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.WorkloadStatusJson;
import java.time.Instant;

/**
 * A workload's dispatch attempts, kept in its status as status.dispatchHistory (one entry per
 * attempt: id, number, cluster, outcome, reason, time), so it keeps its history across evictions and
 * redispatches. The number of entries is the number of attempts made.
 */
final class DispatchHistory {
    private DispatchHistory() {}

    static int count(ObjectNode workload) {
        return WorkloadStatusJson.dispatchPartsOf(workload.path("status")).attemptsMade();
    }

    /** Adds the attempt, or updates its outcome when it is there already. */
    static void record(ManagerState state, WorkloadKey key, String attemptId, String cluster, int number, String outcome,
                       String reason, Instant at) {
        DispatchStatusWriter.update(state, key, parts -> parts.withOutcome(attemptId, cluster, number, outcome, reason, at));
    }
}
