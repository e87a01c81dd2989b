package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.CohortStatus;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.ObservedGeneration;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.store.ObjectStore;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Writes the controller's results into the durable store, where the API reads them; a Workload's
 * status goes through {@link WorkloadStatusStore}, its one writer. Once a workload's status is stored,
 * dispatch hears of it through the {@link DispatchPort} the root registered.
 */
final class StoreStatusSink implements StatusSink {
    private final ObjectStore store;
    private final WorkloadStatusStore statuses;
    private final DispatchPort dispatch;
    /** The controller forgets a workload whose expiry deleted it. */
    private final Consumer<WorkloadKey> forgetInController;

    StoreStatusSink(ObjectStore store, DispatchPort dispatch, Consumer<WorkloadKey> forgetInController) {
        this.store = store;
        this.statuses = new WorkloadStatusStore(store);
        this.dispatch = dispatch;
        this.forgetInController = forgetInController;
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        ObjectKey objectKey = new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name());
        Optional<StoredObject> stored = store.get(objectKey);
        if (stored.isEmpty()) return;
        if (stored.get().readOnlyObject().path("spec").path("active").asBoolean(true) != active) {
            ObjectNode object = stored.get().object();
            object.with("spec").put("active", active);
            store.replace(objectKey, object, null);
        }
        // the controller's part only: dispatch's fields and the fields others wrote stay
        statuses.writeAdmission(key, status);
        dispatch.workloadChanged(key);
    }

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
            Optional<StoredObject> stored = store.get(key);
            if (stored.isEmpty()) return;
            store.replaceStatus(key, ObservedGeneration.stamp(status, stored.get().readOnlyObject()), null);
        } catch (NotFoundException deleted) {
            // the queue was deleted in the meantime
        }
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        try {
            store.delete(new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name()));
        } catch (NotFoundException gone) {
            // deleted already
        }
        forgetInController.accept(key);
    }
}
