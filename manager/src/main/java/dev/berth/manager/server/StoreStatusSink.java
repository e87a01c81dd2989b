package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.CohortStatus;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.DispatchStatusJson;
import dev.berth.manager.objects.ObservedGeneration;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;

/** Writes the controller's results into the durable store, where the API reads them. */
final class StoreStatusSink implements StatusSink {
    private final ManagerState state;

    StoreStatusSink(ManagerState state) {
        this.state = state;
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        ObjectKey objectKey = new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name());
        Optional<StoredObject> stored = state.store.get(objectKey);
        if (stored.isEmpty()) return;
        ObjectNode object = stored.get().object();
        ObjectNode current = object;
        if (object.path("spec").path("active").asBoolean(true) != active) {
            object.with("spec").put("active", active);
            current = state.store.replace(objectKey, object, null).object();
        }
        ObjectNode written = ObservedGeneration.stamp(StatusJson.workloadStatus(status), current);
        // Dispatch's own fields are kept: the controller does not know them.
        ObjectNode before = stored.get().object().path("status").isObject() ? (ObjectNode) stored.get().object().get("status") : null;
        if (before != null) {
            for (String kept : DISPATCH_FIELDS) {
                if (before.has(kept)) written.set(kept, before.get(kept));
            }
            keepPodSetUpdates(before, written);
        }
        state.store.replaceStatus(objectKey, written, null);
        if (state.dispatcher != null) state.dispatcher.workloadChanged(key);
    }

    /** The podSetUpdates a check's controller wrote with Ready stay while the check stays Ready (the controller does not model them). */
    private static void keepPodSetUpdates(ObjectNode before, ObjectNode written) {
        for (com.fasterxml.jackson.databind.JsonNode old : before.path("admissionChecks")) {
            if (!old.has("podSetUpdates")) continue;
            for (com.fasterxml.jackson.databind.JsonNode now : written.path("admissionChecks")) {
                if (now.path("name").equals(old.path("name")) && dev.berth.protocol.Conditions.CheckStates.READY.equals(now.path("state").asText())
                        && now instanceof ObjectNode check) {
                    check.set("podSetUpdates", old.get("podSetUpdates"));
                }
            }
        }
    }

    /** Status fields written by the dispatcher, not the controller: Kueue's clusterName and Berth's dispatch block, history and holds. */
    static final java.util.List<String> DISPATCH_FIELDS = java.util.List.of(DispatchStatusJson.CLUSTER_NAME,
            DispatchStatusJson.DISPATCH, DispatchStatusJson.HISTORY, DispatchStatusJson.HOLDS);

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        writeStatus(new ObjectKey(Resources.CLUSTER_QUEUES.resource(), "", name), status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        writeStatus(new ObjectKey(Resources.LOCAL_QUEUES.resource(), namespace, name), StatusJson.localQueueStatus(status));
    }

    @Override
    public void cohortChanged(String name, CohortStatus status) {
        writeStatus(new ObjectKey(Resources.COHORTS.resource(), "", name), StatusJson.cohortStatus(status));
    }

    private void writeStatus(ObjectKey key, QueueStatus status) {
        writeStatus(key, StatusJson.queueStatus(status));
    }

    private void writeStatus(ObjectKey key, ObjectNode status) {
        try {
            Optional<StoredObject> stored = state.store.get(key);
            if (stored.isEmpty()) return;
            state.store.replaceStatus(key, ObservedGeneration.stamp(status, stored.get().object()), null);
        } catch (NotFoundException deleted) {
            // the queue was deleted in the meantime
        }
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        try {
            state.store.delete(new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name()));
        } catch (NotFoundException gone) {
            // deleted already
        }
        state.controller.delete(key);
    }
}
