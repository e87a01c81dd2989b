package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A store that tells listeners of every successful write, after it is durable: the seam watches are
 * fed from. Status writes by the controller pass through it like API writes do. Listeners run on
 * the writing thread (the state thread) and must only hand the change on, never block. Listeners
 * that tell the outside world ({@link #listenOnceDurable}: watches) hear of a write made inside
 * {@link #inOneSync} only once the group is durable, in order.
 *
 * <p>Built with the state thread as {@code deliveries}, a group does not wait for its sync (pipelined group commit,
 * {@link ObjectStore#inOneSyncThen}): the state thread goes on with the next task while the disk syncs, and the
 * group's changes and {@link #whenDurable} actions are told on the state thread once it is durable. Everything told
 * to the outside waits in one queue, in the order it was made: a write outside a group, or a whenDurable action,
 * that follows a group still syncing is told after that group. Without deliveries every group waits for its sync.
 * A group whose sync failed is lost: its changes are never told, and its actions, and every action after it, are told
 * the failure ({@link #whenDurable(Runnable, Consumer)}), so a request waiting for it gets an error, not silence.
 */
public final class ChangeFeedStore implements ObjectStore {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ChangeFeedStore.class);

    /** A group's changes and actions, or what waits behind an earlier group; told once durable and at the head. */
    private static final class Publication {
        List<StoreChange> changes = List.of();
        List<Waiter> actions = List.of();
        boolean durable;
        /** Why the group's sync failed; null while it is to come or once it succeeded. */
        RuntimeException lost;
    }

    /** An action waiting for the writes before it to be durable, and what it does if they are lost instead. */
    private record Waiter(Runnable action, Consumer<RuntimeException> ifLost) {}

    private final ObjectStore store;
    /** Where the changes and actions of a group synced on another thread are told; the calling thread when groups wait. */
    private final Executor deliveries;
    /** Every group waits for its sync (built without deliveries): what it made is told before it returns. */
    private final boolean groupsWaitForSync;
    /** Groups whose sync is still to come and what follows them, oldest first. Guarded by this. */
    private final ArrayDeque<Publication> pending = new ArrayDeque<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    /** The thread running the open outermost group; guarded by this. */
    private Thread groupThread;
    /** Whether {@link #drain} is telling, and whether it must look again before it stops. Guarded by this. */
    private boolean draining;
    private boolean drainAgain;
    private final List<Consumer<StoreChange>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<StoreChange>> durableListeners = new CopyOnWriteArrayList<>();
    /** Changes of the open group not yet told to {@link #durableListeners}; null outside a group. Guarded by this. */
    private List<StoreChange> heldForSync;
    private int groupDepth;
    /** Actions of the open group waiting for its sync ({@link #whenDurable}); null outside a group. Guarded by this. */
    private List<Waiter> afterSync;
    /** Why a group was lost; from then on every action waiting is told so instead of run. Guarded by this. */
    private RuntimeException lostCause;

    public ChangeFeedStore(ObjectStore store) {
        this(store, null);
    }

    /** With deliveries (the state thread): groups do not wait for their sync; what they made is told there once durable. */
    public ChangeFeedStore(ObjectStore store, Executor deliveries) {
        this.store = store;
        this.groupsWaitForSync = deliveries == null;
        this.deliveries = deliveries == null ? Runnable::run : deliveries;
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
        Publication publication;
        synchronized (this) {
            if (groupDepth++ > 0) publication = null;
            else {
                publication = new Publication();
                heldForSync = new ArrayList<>();
                afterSync = new ArrayList<>();
                groupThread = Thread.currentThread();
            }
        }
        if (publication == null) {
            try {
                return store.inOneSync(work);
            } finally {
                synchronized (this) {
                    groupDepth--;
                }
            }
        }
        boolean completed = false;
        try {
            T result = groupsWaitForSync ? store.inOneSync(work) : store.inOneSyncThen(work, new SyncOutcome() {
                @Override
                public void durable() {
                    settled(publication, null);
                }

                @Override
                public void lost(RuntimeException cause) {
                    settled(publication, cause);
                }
            });
            completed = true;
            return result;
        } finally {
            synchronized (this) {
                groupDepth = 0;
                groupThread = null;
                publication.changes = heldForSync;
                // a group whose work or sync failed has its changes told, not its actions run: the store then refuses
                // every further write and the manager restarts, and watchers relist from what it serves then
                publication.actions = completed ? afterSync : List.of();
                if (groupsWaitForSync) publication.durable = true;
                heldForSync = null;
                afterSync = null;
                pending.addLast(publication);
            }
            drain();
        }
    }

    /** Called once the group's sync ended (lost: it failed): on the group's own thread (nothing to sync), or the sync thread's. */
    private void settled(Publication publication, RuntimeException lostOrNull) {
        boolean onGroupThread;
        synchronized (this) {
            publication.durable = true;
            publication.lost = lostOrNull;
            onGroupThread = groupThread == Thread.currentThread();
        }
        if (!onGroupThread) queueDrain(); // the group's own end drains otherwise
    }

    private void queueDrain() {
        if (!drainQueued.compareAndSet(false, true)) return;
        try {
            deliveries.execute(() -> {
                drainQueued.set(false);
                drain();
            });
        } catch (RejectedExecutionException closing) {
            drainQueued.set(false); // the manager is stopping: nothing waiting is acknowledged
        }
    }

    /** Tells, in order, every publication at the head of the queue that is durable. */
    private void drain() {
        synchronized (this) {
            if (draining) { // the drain under way, on this thread or another, looks again before it stops
                drainAgain = true;
                return;
            }
            draining = true;
        }
        while (true) {
            Publication head;
            RuntimeException lost;
            synchronized (this) {
                head = pending.peekFirst();
                if (head == null || !head.durable) {
                    if (!drainAgain) {
                        draining = false;
                        return;
                    }
                    drainAgain = false;
                    continue;
                }
                pending.pollFirst();
                if (head.lost != null && lostCause == null) lostCause = head.lost;
                lost = lostCause;
            }
            try {
                if (lost == null) tell(head.changes, head.actions);
                else tellLost(head.actions, lost);
            } catch (RuntimeException | Error e) {
                synchronized (this) {
                    draining = false;
                }
                throw e;
            }
        }
    }

    private void tell(List<StoreChange> changes, List<Waiter> actions) {
        for (StoreChange change : changes) {
            for (Consumer<StoreChange> listener : durableListeners) listener.accept(change);
        }
        for (Waiter waiter : actions) run(waiter.action());
    }

    /** A lost group's changes are never told (they may not be on disk); its waiters, and all after them, hear why. */
    private static void tellLost(List<Waiter> actions, RuntimeException cause) {
        for (Waiter waiter : actions) run(() -> waiter.ifLost().accept(cause));
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // one failed send must not keep the group's other sends back
            log.atWarn().setCause(e).log("an action waiting for a group's sync failed");
        }
    }

    /** Queues what is already durable behind the groups still syncing; false when none is (tell it now). */
    private boolean queuedBehindSyncing(List<StoreChange> changes, List<Waiter> actions) {
        synchronized (this) {
            if (pending.isEmpty()) return false;
            Publication publication = new Publication();
            publication.changes = changes;
            publication.actions = actions;
            publication.durable = true;
            pending.addLast(publication);
        }
        queueDrain(); // told on the deliveries' thread, whichever thread wrote or asked
        return true;
    }

    /** Forces what the groups still syncing wrote, now, and tells it: a reader then sees only what is durable. */
    @Override
    public void syncNow() {
        synchronized (this) {
            if (pending.isEmpty()) return;
        }
        store.syncNow();
        synchronized (this) {
            for (Publication publication : pending) publication.durable = true;
        }
        drain();
    }

    @Override
    public void whenDurable(Runnable action) {
        whenDurable(action, lost -> { });
    }

    @Override
    public void whenDurable(Runnable action, Consumer<RuntimeException> ifLost) {
        Waiter waiter = new Waiter(action, ifLost);
        RuntimeException lost;
        synchronized (this) {
            if (groupDepth > 0) {
                afterSync.add(waiter);
                return;
            }
            lost = lostCause;
        }
        if (lost != null) ifLost.accept(lost);
        else if (!queuedBehindSyncing(List.of(), List.of(waiter))) action.run();
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
    public Optional<String> failure() {
        return store.failure();
    }

    @Override
    public Optional<String> unreachable() {
        return store.unreachable();
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
        if (queuedBehindSyncing(List.of(change), List.of())) return object;
        for (Consumer<StoreChange> listener : durableListeners) listener.accept(change);
        return object;
    }
}
