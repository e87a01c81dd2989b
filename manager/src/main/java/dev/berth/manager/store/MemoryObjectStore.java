package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** An {@link ObjectStore} with the same semantics as the durable ones and no durability: for tests and benchmarks. */
public final class MemoryObjectStore implements ObjectStore {
    private final ObjectTable table;

    public MemoryObjectStore(Clock clock) {
        this.table = new ObjectTable(clock);
    }

    public MemoryObjectStore() {
        this(Clock.systemUTC());
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
    public long revision() {
        return table.revision();
    }

    @Override
    public void close() {
        table.close();
    }
}
