package dev.berth.manager.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A real store behind every call, journal groups included: the base of the test stores that watch or fault a
 * few calls and pass the rest through (override only those).
 */
public abstract class ForwardingStore implements ObjectStore {
    protected final ObjectStore store;

    protected ForwardingStore(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
        return store.get(key);
    }

    @Override
    public List<StoredObject> list(String resource, String namespaceOrNull) {
        return store.list(resource, namespaceOrNull);
    }

    @Override
    public StoredObject create(ObjectKey key, ObjectNode object) {
        return store.create(key, object);
    }

    @Override
    public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        return store.replace(key, object, expectedResourceVersionOrNull);
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        return store.replaceStatus(key, status, expectedResourceVersionOrNull);
    }

    @Override
    public StoredObject delete(ObjectKey key) {
        return store.delete(key);
    }

    @Override
    public <T> T inOneSync(Supplier<T> work) {
        return store.inOneSync(work);
    }

    @Override
    public void whenDurable(Runnable action) {
        store.whenDurable(action);
    }

    @Override
    public void whenDurable(Runnable action, java.util.function.Consumer<RuntimeException> ifLost) {
        store.whenDurable(action, ifLost);
    }

    @Override
    public Optional<String> failure() {
        return store.failure();
    }

    @Override
    public Optional<String> unreachable() {
        return store.unreachable();
    }

    @Override
    public long revision() {
        return store.revision();
    }

    @Override
    public void close() {
        store.close();
    }
}
