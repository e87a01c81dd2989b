package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchParts;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.WorkloadStatusJson;
import dev.berth.manager.store.ConflictException;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of a stored Workload's status. The admission controller hands it its part (a
 * {@link WorkloadStatus}), the dispatcher its part (a change of {@link DispatchParts}); each write
 * reads the stored status, puts that one part in (see {@link WorkloadStatusJson}) and writes the
 * whole status once, under the resourceVersion it read, unless that changed nothing. Should anyone
 * else have written the status in between (another thread, the API, another replica), the write
 * conflicts and is made again on what is stored now: no part overwrites another's, and no field
 * someone else wrote is lost.
 */
final class WorkloadStatusStore {
    private static final Logger log = LoggerFactory.getLogger(WorkloadStatusStore.class);
    /** Writes tried before a conflict is given up and thrown; each try reads afresh. */
    static final int TRIES = 5;

    private final ObjectStore store;

    WorkloadStatusStore(ObjectStore store) {
        this.store = store;
    }

    /**
     * Writes the admission controller's part. A workload not stored is left alone; a failed write
     * throws, so the controller undoes the change it was applying.
     */
    void writeAdmission(WorkloadKey key, WorkloadStatus admission) {
        // a status that is already stored is not written again (the API server's no-op update: no new resourceVersion,
        // no watch event): a finish the user patched in is the controller's Finished part as it would write it
        write(key, workload -> {
            JsonNode current = workload.path("status");
            ObjectNode next = WorkloadStatusJson.withAdmission(current, admission, workload);
            return next.equals(current) ? Optional.empty() : Optional.of(next);
        });
    }

    /**
     * Changes the dispatcher's part and writes it when that changed anything. {@code change} may run
     * more than once (again after a conflict), so it only computes the new value. A workload that is
     * gone, or deleted meanwhile, is left alone.
     */
    void updateDispatch(WorkloadKey key, UnaryOperator<DispatchParts> change) {
        try {
            write(key, workload -> {
                JsonNode current = workload.path("status");
                DispatchParts before = WorkloadStatusJson.dispatchPartsOf(current);
                ObjectNode next = WorkloadStatusJson.withDispatch(current, before, change.apply(before));
                return next.equals(current) ? Optional.empty() : Optional.of(next);
            });
        } catch (NotFoundException deleted) {
            // deleted meanwhile
        }
    }

    /** {@code compose} gets the stored Workload's shared tree: it builds the next status from it and never changes it. */
    private void write(WorkloadKey key, Function<ObjectNode, Optional<ObjectNode>> compose) {
        ObjectKey objectKey = new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name());
        for (int tryNumber = 1; ; tryNumber++) {
            Optional<StoredObject> stored = store.get(objectKey);
            if (stored.isEmpty()) return;
            Optional<ObjectNode> next = compose.apply(stored.get().readOnlyObject());
            if (next.isEmpty()) return;
            try {
                store.replaceStatus(objectKey, next.get(), Long.toString(stored.get().resourceVersion()));
                return;
            } catch (ConflictException writtenMeanwhile) {
                if (tryNumber >= TRIES) throw writtenMeanwhile;
                log.atDebug().addKeyValue("workload", key).addKeyValue("try", tryNumber)
                        .log("workload status written meanwhile; putting the part in again");
            }
        }
    }
}
