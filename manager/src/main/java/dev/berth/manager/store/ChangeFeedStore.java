package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A store that tells listeners of every successful write, after it is durable: the seam watches are
 * fed from. Status writes by the controller pass through it like API writes do. Listeners run on
 * the writing thread (the state thread) and must only hand the change on, never block.
 */
public final class ChangeFeedStore implements ObjectStore {
    private final ObjectStore store;
    private final List<Consumer<StoreChange>> listeners = new CopyOnWriteArrayList<>();

    public ChangeFeedStore(ObjectStore store) {
        this.store = store;
    }

    public void listen(Consumer<StoreChange> listener) {
        listeners.add(listener);
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
        return published(StoreChange.Type.ADDED, store.create(key, object));
    }

    @Override
    public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        return published(StoreChange.Type.MODIFIED, store.replace(key, object, expectedResourceVersionOrNull));
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        return published(StoreChange.Type.MODIFIED, store.replaceStatus(key, status, expectedResourceVersionOrNull));
    }

    @Override
    public StoredObject delete(ObjectKey key) {
        StoredObject deleted = store.delete(key);
        if (listeners.isEmpty()) return deleted;
        long revision = store.revision();
        ObjectNode object = deleted.object();
        object.with("metadata").put("resourceVersion", Long.toString(revision));
        published(StoreChange.Type.DELETED, StoredObject.of(key, revision, object));
        return deleted;
    }

    @Override
    public long revision() {
        return store.revision();
    }

    @Override
    public void close() {
        store.close();
    }

    private StoredObject published(StoreChange.Type type, StoredObject object) {
        StoreChange change = new StoreChange(type, object);
        for (Consumer<StoreChange> listener : listeners) listener.accept(change);
        return object;
    }
}
