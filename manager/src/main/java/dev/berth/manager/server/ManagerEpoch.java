package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;

/** The manager's fencing epoch: a counter kept in the store and raised at every start. */
final class ManagerEpoch {
    private static final ObjectKey KEY = new ObjectKey(Resources.MANAGER_RECORDS, "", "fencing-epoch");

    private ManagerEpoch() {}

    /** Raises the stored epoch by one and returns the new value (1 on the first start). */
    static long next(ObjectStore store) {
        Optional<StoredObject> stored = store.get(KEY);
        long epoch = stored.map(s -> s.object().path("epoch").asLong(0)).orElse(0L) + 1;
        ObjectNode record = JsonNodeFactory.instance.objectNode();
        record.putObject("metadata").put("name", KEY.name());
        record.put("epoch", epoch);
        if (stored.isPresent()) store.replace(KEY, record, null);
        else store.create(KEY, record);
        return epoch;
    }
}
