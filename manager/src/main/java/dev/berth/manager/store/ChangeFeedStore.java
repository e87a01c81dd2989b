package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A store that tells listeners of every successful write, after it is durable: the seam watches are
 * fed from. Status writes by the controller pass through it like API writes do. Listeners run on
 * the writing thread (the state thread) and must only hand the change on, never block. Listeners
 * that tell the outside world ({@link #listenOnceDurable}: watches) hear of a write made inside
 * {@link #inOneSync} only once the group is durable, in order.
 */
public final class ChangeFeedStore implements ObjectStore {
    private final ObjectStore store;
    private final List<Consumer<StoreChange>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<StoreChange>> durableListeners = new CopyOnWriteArrayList<>();
    /** Changes of the open group not yet told to {@link #durableListeners}; null outside a group. Guarded by this. */
    private List<StoreChange> heldForSync;
    private int groupDepth;
    /** Actions of the open group waiting for its sync ({@link #whenDurable}); null outside a group. Guarded by this. */
    private List<Runnable> afterSync;

    public ChangeFeedStore(ObjectStore store) {
        this.store = store;
    }

    public void listen(Consumer<StoreChange> listener) {
        listeners.add(listener);
    }

    /** A listener that may tell others outside the manager: it hears of a grouped write only once the group is durable. */
    public void listenOnceDurable(Consumer<StoreChange> listener) {
        durableListeners.add(listener);
    }

    @Override
    public <T> T inOneSync(java.util.function.Supplier<T> work) {
        List<StoreChange> held;
        List<Runnable> actions;
        boolean synced = false;
        synchronized (this) {
            if (groupDepth++ == 0) {
                heldForSync = new java.util.ArrayList<>();
                afterSync = new java.util.ArrayList<>();
            }
        }
        try {
            T result = store.inOneSync(work);
            synced = true;
            return result;
        } finally {
            synchronized (this) {
                boolean outermost = --groupDepth == 0;
                held = outermost ? heldForSync : List.of();
                actions = outermost && synced ? afterSync : List.of();
                if (outermost) {
                    heldForSync = null;
                    afterSync = null;
                }
            }
            // told even when the group's sync failed: the store then refuses every further write and the
            // manager restarts, and watchers relist from what the restarted manager serves
            for (StoreChange change : held) {
                for (Consumer<StoreChange> listener : durableListeners) listener.accept(change);
            }
            for (Runnable action : actions) {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    // one failed send must not keep the group's other sends back
                    org.slf4j.LoggerFactory.getLogger(ChangeFeedStore.class).atWarn().setCause(e).log("an action waiting for a group's sync failed");
                }
            }
        }
    }

    @Override
    public void whenDurable(Runnable action) {
        synchronized (this) {
            if (groupDepth > 0) {
                afterSync.add(action);
                return;
            }
        }
        action.run();
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
        if (listeners.isEmpty() && durableListeners.isEmpty()) return deleted;
        long revision = store.revision();
        published(StoreChange.Type.DELETED, StoredObject.owning(key, revision, ObjectStamping.restamped(deleted.readOnlyObject(), revision)));
        return deleted;
    }

    @Override
    public boolean readsShowOnlyDurableWrites() {
        return store.readsShowOnlyDurableWrites();
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
        if (durableListeners.isEmpty()) return object;
        synchronized (this) {
            if (heldForSync != null) {
                heldForSync.add(change);
                return object;
            }
        }
        for (Consumer<StoreChange> listener : durableListeners) listener.accept(change);
        return object;
    }
}
