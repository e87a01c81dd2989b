package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/** The stores that keep every object in an {@link ObjectTable} in memory and only differ in how they log writes. */
abstract class TableBackedStore implements ObjectStore {
    final ObjectTable table;

    TableBackedStore(ObjectTable table) {
        this.table = table;
    }

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
        return table.get(key);
    }

    @Override
    public List<StoredObject> list(String resource, String namespaceOrNull) {
        return table.list(resource, namespaceOrNull);
    }

    @Override
    public StoredObject create(ObjectKey key, ObjectNode object) {
        return table.create(key, object);
    }

    @Override
    public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        return table.replace(key, object, expectedResourceVersionOrNull);
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        return table.replaceStatus(key, status, expectedResourceVersionOrNull);
    }

    @Override
    public StoredObject delete(ObjectKey key) {
        return table.delete(key);
    }

    @Override
    public <T> T inOneSync(java.util.function.Supplier<T> work) {
        return table.inOneSync(work);
    }

    @Override
    public <T> T inOneSyncThen(java.util.function.Supplier<T> work, SyncOutcome afterSync) {
        return table.inOneSyncThen(work, afterSync);
    }

    @Override
    public void syncNow() {
        table.syncNow();
    }

    @Override
    public long revision() {
        return table.revision();
    }

    @Override
    public void close() {
        table.close();
    }
}
