package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.ConflictException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreFence;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;

/**
 * The manager's fencing epoch: a counter kept in the store and raised at every start and every
 * leadership change. Raising it is a compare-and-set on the record's resourceVersion, so two replicas
 * raising it at once over a shared store (PostgreSQL) never get the same epoch.
 */
public final class ManagerEpoch {
    private static final ObjectKey KEY = new ObjectKey(Resources.MANAGER_RECORDS, "", "fencing-epoch");

    private ManagerEpoch() {}

    /** Raises the stored epoch by one and returns the new value (1 on the first start). */
    public static long next(ObjectStore store) {
        while (true) {
            Optional<StoredObject> stored = store.get(KEY);
            long epoch = stored.map(s -> s.object().path("epoch").asLong(0)).orElse(0L) + 1;
            ObjectNode record = JsonNodeFactory.instance.objectNode();
            record.putObject("metadata").put("name", KEY.name());
            record.put("epoch", epoch);
            try {
                if (stored.isPresent()) store.replace(KEY, record, Long.toString(stored.get().resourceVersion()));
                else store.create(KEY, record);
                return epoch;
            } catch (ConflictException | AlreadyExistsException raisedByAnotherReplica) {
                // another replica raised it between our read and write: read again
            }
        }
    }

    /** The fence that lets a manager of this epoch write to a shared store only while the stored epoch is still its own. */
    public static StoreFence fence(long epoch) {
        return new StoreFence(KEY, "epoch", epoch);
    }

    /** The epoch in the store now; 0 before the first start. */
    public static long current(ObjectStore store) {
        return store.get(KEY).map(s -> s.object().path("epoch").asLong(0)).orElse(0L);
    }
}
