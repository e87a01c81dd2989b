package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.dispatch.OldAttemptFence;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.WorkloadStatusJson;
import java.util.Collection;
import java.util.List;

/**
 * The fences holding a workload back from redispatch, kept in its status as status.dispatchHolds
 * (per cluster: the old attempt, since when, when its lease surely ran out, and the kind of hold), so
 * that a restarted manager or a new leader keeps holding it: a fence forgotten would let the workload
 * start elsewhere while its old attempt may still run, or still arrive.
 */
final class DispatchHolds {
    private DispatchHolds() {}

    /** Writes the workload's holds (none removes the field) when they changed. */
    static void write(ManagerState state, WorkloadKey key, Collection<OldAttemptFence> fences) {
        List<DispatchHold> holds = fences.stream().map(DispatchHold::of).toList();
        DispatchStatusWriter.update(state, key, parts -> parts.withHolds(holds));
    }

    /** The holds stored in a workload's status; an entry that cannot be read is skipped. */
    static List<OldAttemptFence> read(ObjectNode workload) {
        return WorkloadStatusJson.dispatchPartsOf(workload.path("status")).holds().stream().map(DispatchHold::toFence).toList();
    }
}
