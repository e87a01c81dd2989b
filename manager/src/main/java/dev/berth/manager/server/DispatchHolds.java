package dev.berth.manager.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.OldAttemptFence;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The fences holding a workload back from redispatch, kept in its status as status.dispatchHolds
 * (per cluster: the old attempt, since when, when its lease surely ran out, and the kind of hold), so
 * that a restarted manager or a new leader keeps holding it: a fence forgotten would let the workload
 * start elsewhere while its old attempt may still run, or still arrive.
 */
final class DispatchHolds {
    static final String FIELD = "dispatchHolds";

    private DispatchHolds() {}

    /** Writes the workload's holds (none removes the field) when they changed. */
    static void write(ManagerState state, WorkloadKey key, Collection<OldAttemptFence> fences) {
        DispatchStatusWriter.updateWorkloadStatus(state, key, status -> {
            if (fences.isEmpty()) status.remove(FIELD);
            else status.set(FIELD, encode(fences));
        });
    }

    /** The holds stored in a workload's status; an entry that cannot be read is skipped. */
    static List<OldAttemptFence> read(ObjectNode workload) {
        List<OldAttemptFence> fences = new ArrayList<>();
        for (JsonNode hold : workload.path("status").path(FIELD)) {
            try {
                String cluster = hold.path("cluster").asText("");
                String attemptId = hold.path("attemptId").asText("");
                if (cluster.isEmpty() || attemptId.isEmpty()) continue;
                Instant since = Instant.parse(hold.path("since").asText());
                Instant leaseGoneAt = Instant.parse(hold.path("leaseGoneAt").asText());
                fences.add(Conditions.Reasons.DISPATCH_UNCONFIRMED.equals(hold.path("reason").asText())
                        ? OldAttemptFence.unconfirmed(cluster, attemptId, since, leaseGoneAt)
                        : OldAttemptFence.raised(cluster, attemptId, since, leaseGoneAt));
            } catch (DateTimeParseException unreadable) {
                // skipped
            }
        }
        return fences;
    }

    private static ArrayNode encode(Collection<OldAttemptFence> fences) {
        ArrayNode holds = JsonNodeFactory.instance.arrayNode();
        for (OldAttemptFence fence : fences) {
            ObjectNode hold = holds.addObject();
            hold.put("cluster", fence.cluster());
            hold.put("attemptId", fence.attemptId());
            hold.put("reason", fence.unconfirmedCreate() ? Conditions.Reasons.DISPATCH_UNCONFIRMED : Conditions.Reasons.OLD_PODS_RUNNING);
            // full precision: a deadline rounded down would release the workload early
            hold.put("since", fence.since().toString());
            hold.put("leaseGoneAt", fence.leaseGoneAt().toString());
        }
        return holds;
    }
}
