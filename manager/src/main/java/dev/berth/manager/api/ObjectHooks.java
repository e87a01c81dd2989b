package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;

/**
 * Kind-specific logic plugged into {@link ObjectService}: validation and conversion before a write,
 * notification after it. All run on the state thread. Every method defaults to a no-op.
 */
public interface ObjectHooks {
    ObjectHooks NONE = new ObjectHooks() { };

    enum Operation { CREATE, UPDATE }

    /**
     * Validates and normalizes an object before it is stored; may return a changed object (for
     * example converted to the storage version).
     *
     * @throws dev.berth.manager.objects.InvalidObjectException to reject it; nothing is stored
     */
    default ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        return incoming;
    }

    /** Warnings for an admitted object, sent to the client as {@code Warning: 299 - "..."} headers. */
    default List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return List.of();
    }

    /** After a create or replace has been durably written. */
    default void stored(StoredObject object) { }

    /**
     * The finalizer that holds this object's deletion now (Kueue's {@code kueue.x-k8s.io/resource-in-use}
     * while the object is in use), or null to delete it at once. A held object is marked with
     * {@code deletionTimestamp} and the finalizer, stays readable, and is deleted when a later delete
     * finds it free.
     */
    default String finalizerHoldingDeletion(StoredObject existing) {
        return null;
    }

    /** After a delete has been durably written; the object as it was. */
    default void deleted(StoredObject object) { }

    /**
     * Validates a new status before it is stored; may return a changed status.
     *
     * @throws dev.berth.manager.objects.InvalidObjectException to reject it
     */
    default ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
        return status;
    }

    /** After a status write has been durably written. */
    default void statusStored(StoredObject object) { }

    /**
     * Whether objects of this kind may be read back through the API (get, list, and the object
     * echoed in write responses). Write-only kinds such as Secrets answer 403 Forbidden on reads,
     * and their write responses carry the object without its data.
     */
    default boolean readable() {
        return true;
    }
}
