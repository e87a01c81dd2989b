package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DispatchHistoryEntry;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one JSON codec of the dispatch parts of a Workload's status: {@code status.dispatch},
 * {@code status.dispatchHistory} and {@code status.dispatchHolds} (see docs/failover.md). Every
 * reader and writer of those fields goes through here.
 * <p>
 * Reading is tolerant: fields it does not know are ignored (and so not carried over when the part is
 * written again), a missing count reads as 0, and a hold that cannot be read (no cluster or attempt,
 * a bad time) is skipped, as before the codec existed.
 */
public final class DispatchStatusJson {
    public static final String DISPATCH = "dispatch";
    public static final String HISTORY = "dispatchHistory";
    public static final String HOLDS = "dispatchHolds";
    /** In status.dispatch: where the cluster's agent put the pods of topology pod sets (see {@link TopologyAssignmentJson}). */
    public static final String TOPOLOGY_ASSIGNMENTS = "topologyAssignments";
    /** Kueue's status.clusterName: the cluster the workload runs on, set with the dispatch block once one admitted it. */
    public static final String CLUSTER_NAME = "clusterName";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private DispatchStatusJson() {}

    // ---- status.dispatch -------------------------------------------------------------------

    public static ObjectNode encode(DispatchStatus dispatch) {
        ObjectNode block = JSON.objectNode();
        block.put("cluster", dispatch.cluster());
        block.put("attemptId", dispatch.attemptId());
        block.put("phase", dispatch.phase());
        if (dispatch.pods() != null) {
            block.put("podsRunning", dispatch.pods().running());
            block.put("podsSucceeded", dispatch.pods().succeeded());
            block.put("podsFailed", dispatch.pods().failed());
            if (dispatch.pods().ready() != null) block.put("podsReady", dispatch.pods().ready());
        }
        if (dispatch.reason() != null) block.put("reason", dispatch.reason());
        if (dispatch.message() != null) block.put("message", dispatch.message());
        if (!dispatch.podProblems().isEmpty()) {
            ArrayNode problems = block.putArray("podProblems");
            for (DispatchStatus.PodProblem problem : dispatch.podProblems()) {
                ObjectNode entry = problems.addObject();
                entry.put("pod", problem.pod());
                entry.put("container", problem.container());
                entry.put("reason", problem.reason());
                entry.put("message", problem.message());
            }
        }
        if (!dispatch.topologyAssignments().isEmpty()) block.set(TOPOLOGY_ASSIGNMENTS, TopologyAssignmentJson.encode(dispatch.topologyAssignments()));
        return block;
    }

    /** The status.dispatch of a Workload's status, or null when it has none (no block, or one without an attempt id). */
    public static DispatchStatus dispatchOf(JsonNode status) {
        JsonNode block = status.path(DISPATCH);
        if (!block.isObject() || block.path("attemptId").asText("").isEmpty()) return null;
        DispatchStatus.PodCounts pods = block.has("podsRunning") || block.has("podsSucceeded") || block.has("podsFailed")
                ? new DispatchStatus.PodCounts(block.path("podsRunning").asInt(0), block.path("podsSucceeded").asInt(0),
                block.path("podsFailed").asInt(0), block.has("podsReady") ? block.path("podsReady").asInt() : null)
                : null;
        List<DispatchStatus.PodProblem> problems = new ArrayList<>();
        for (JsonNode p : block.path("podProblems")) {
            problems.add(new DispatchStatus.PodProblem(text(p, "pod"), text(p, "container"), text(p, "reason"), text(p, "message")));
        }
        return new DispatchStatus(text(block, "cluster"), text(block, "attemptId"), text(block, "phase"), pods, text(block, "reason"),
                text(block, "message"), problems, TopologyAssignmentJson.decode(block.path(TOPOLOGY_ASSIGNMENTS)));
    }

    // ---- status.dispatchHistory ------------------------------------------------------------

    public static ArrayNode encodeHistory(List<DispatchHistoryEntry> history) {
        ArrayNode array = JSON.arrayNode();
        for (DispatchHistoryEntry entry : history) {
            ObjectNode json = array.addObject();
            json.put("attemptId", entry.attemptId());
            json.put("attempt", entry.attempt());
            json.put("cluster", entry.cluster());
            if (entry.dispatchTime() != null) json.put("dispatchTime", StatusJson.timestamp(entry.dispatchTime()));
            json.put("outcome", entry.outcome());
            if (entry.reason() != null) json.put("reason", entry.reason());
            if (entry.lastUpdateTime() != null) json.put("lastUpdateTime", StatusJson.timestamp(entry.lastUpdateTime()));
        }
        return array;
    }

    /** The status.dispatchHistory of a Workload's status, oldest first; empty when it has none. */
    public static List<DispatchHistoryEntry> historyOf(JsonNode status) {
        List<DispatchHistoryEntry> history = new ArrayList<>();
        for (JsonNode entry : status.path(HISTORY)) {
            history.add(new DispatchHistoryEntry(text(entry, "attemptId"), entry.path("attempt").asInt(0), text(entry, "cluster"),
                    instant(entry, "dispatchTime"), text(entry, "outcome"), text(entry, "reason"), instant(entry, "lastUpdateTime")));
        }
        return history;
    }

    // ---- status.dispatchHolds --------------------------------------------------------------

    public static ArrayNode encodeHolds(Collection<DispatchHold> holds) {
        ArrayNode array = JSON.arrayNode();
        for (DispatchHold hold : holds) {
            ObjectNode json = array.addObject();
            json.put("cluster", hold.cluster());
            json.put("attemptId", hold.attemptId());
            json.put("reason", hold.unconfirmedCreate() ? Conditions.Reasons.DISPATCH_UNCONFIRMED : Conditions.Reasons.OLD_PODS_RUNNING);
            // full precision: a deadline rounded down would release the workload early
            json.put("since", hold.since().toString());
            json.put("leaseGoneAt", hold.leaseGoneAt().toString());
            if (hold.agentLost()) json.put("agentLost", true);
        }
        return array;
    }

    /** The status.dispatchHolds of a Workload's status; an entry that cannot be read is skipped. */
    public static List<DispatchHold> holdsOf(JsonNode status) {
        List<DispatchHold> holds = new ArrayList<>();
        for (JsonNode hold : status.path(HOLDS)) {
            String cluster = hold.path("cluster").asText("");
            String attemptId = hold.path("attemptId").asText("");
            Instant since = instant(hold, "since");
            Instant leaseGoneAt = instant(hold, "leaseGoneAt");
            if (cluster.isEmpty() || attemptId.isEmpty() || since == null || leaseGoneAt == null) continue;
            holds.add(new DispatchHold(cluster, attemptId, Conditions.Reasons.DISPATCH_UNCONFIRMED.equals(hold.path("reason").asText()),
                    since, leaseGoneAt, hold.path("agentLost").asBoolean(false)));
        }
        return holds;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    private static Instant instant(JsonNode node, String field) {
        String text = text(node, field);
        if (text == null) return null;
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }
}
