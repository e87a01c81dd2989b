package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The Workload a job kind owns (found by its ownerReference's uid), and its replacement when the job changed under it. */
final class OwnedWorkloads {
    private OwnedWorkloads() {}

    /** The job's Workload that is not being deleted, if any. */
    static Optional<StoredObject> current(ManagerState state, StoredObject job) {
        String uid = job.object().path("metadata").path("uid").asText("");
        for (StoredObject workload : state.store.list(Resources.WORKLOADS.resource(), job.key().namespace())) {
            if (workload.object().path("metadata").has("deletionTimestamp")) continue;
            for (JsonNode owner : workload.object().path("metadata").path("ownerReferences")) {
                if (uid.equals(owner.path("uid").asText())) return Optional.of(workload);
            }
        }
        return Optional.empty();
    }

    /** Deletes a Workload as a job's deletion does: the worker's copy is stopped before its quota is released. */
    static void delete(ManagerState state, StoredObject workload) {
        try {
            state.store.delete(workload.key());
            state.controller.delete(WorkloadKey.of(workload.key().namespace(), workload.key().name()));
            state.reschedule();
        } catch (NotFoundException gone) {
            // deleted meanwhile
        }
    }

    static List<Integer> counts(JsonNode workload) {
        List<Integer> counts = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) counts.add(podSet.path("count").asInt());
        return counts;
    }
}
