package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * A durable, kind-agnostic store of API objects. Every write takes the next {@link #revision()} as
 * the object's resourceVersion. Implementations are thread-safe.
 */
public interface ObjectStore extends AutoCloseable {
    Optional<StoredObject> get(ObjectKey key);

    /** Objects of one resource, sorted by namespace then name; namespaceOrNull null means all namespaces. */
    List<StoredObject> list(String resource, String namespaceOrNull);

    /**
     * Stores a new object, setting metadata.uid, resourceVersion, creationTimestamp and generation 1.
     *
     * @throws AlreadyExistsException if the key is taken
     */
    StoredObject create(ObjectKey key, ObjectNode object);

    /**
     * Replaces the object but keeps its uid, creationTimestamp and stored status; generation grows
     * only when the spec changed.
     *
     * @throws NotFoundException if absent
     * @throws ConflictException if expectedResourceVersionOrNull is set and stale
     */
    StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull);

    /** Replaces only the status. Same exceptions as {@link #replace}. */
    StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull);

    /** Removes the object and returns it as it was. @throws NotFoundException if absent */
    StoredObject delete(ObjectKey key);

    /**
     * This store with every write checking the fence in the same transaction (throwing
     * {@link FencedWriteException} when it no longer holds). Stores that only one process writes
     * (memory, file) need no fence and return themselves; a shared store (PostgreSQL) overrides this.
     * Closing the fenced store closes this one.
     */
    default ObjectStore fenced(StoreFence fence) {
        return this;
    }

    /**
     * Why this store refuses every write until the manager restarts (the embedded journal's force or append failed);
     * empty while it works. A store that may recover by itself (PostgreSQL unreachable) stays empty: its writes fail
     * one by one instead. The manager's liveness check reports it, so the orchestrator restarts the manager.
     */
    default java.util.Optional<String> failure() {
        return java.util.Optional.empty();
    }

    /**
     * Why this store cannot serve a request now, asked by the readiness check: a shared store that may come back
     * (PostgreSQL) answers a round trip, and may block up to its connection timeout doing so; empty when it answered
     * or the store lives in the process. Never call it on an event loop or the state thread.
     */
    default java.util.Optional<String> unreachable() {
        return java.util.Optional.empty();
    }

    /**
     * Runs {@code work}, whose writes may be made durable together (one journal sync for all of them,
     * group commit) instead of one by one; returns, or throws, only once every write made in it is
     * durable. Nothing made in it may be acknowledged to anyone outside before this returns. If the
     * final sync fails it throws {@link java.io.UncheckedIOException} and the store refuses further
     * writes (the manager restarts from what is on disk). Stores whose every write is already durable
     * when it returns (memory, PostgreSQL) simply run the work.
     */
    default <T> T inOneSync(java.util.function.Supplier<T> work) {
        return work.get();
    }

    /**
     * As {@link #inOneSync}, but may return before the group's sync (pipelined group commit): afterSync runs once every
     * write made in it is durable, on whichever thread made it so (this one, before this returns, for stores whose
     * writes are durable when they return, or when the group wrote nothing that needs a sync); it is told lost instead
     * if the sync failed. Nothing made in it may be told to anyone outside the manager before it is durable.
     */
    default <T> T inOneSyncThen(java.util.function.Supplier<T> work, SyncOutcome afterSync) {
        T result = inOneSync(work);
        afterSync.durable();
        return result;
    }

    /**
     * Makes every write made so far durable before it returns, those of groups whose sync is still to come included,
     * and tells their listeners and actions (a {@link ChangeFeedStore}); for a reader that must see only what is durable.
     */
    default void syncNow() {
    }

    /**
     * Runs the action once every write made so far on this thread is durable: at once outside a group,
     * after the group's sync inside {@link #inOneSync} (never, if that sync fails). What tells the world
     * outside the store about a write (a remote create naming a recorded attempt) goes through here.
     */
    default void whenDurable(Runnable action) {
        action.run();
    }

    /**
     * As {@link #whenDurable(Runnable)}, and if the sync it waits for fails, ifLost runs instead (on whichever thread
     * learnt of it), so a waiter that answers someone answers with the failure rather than never.
     */
    default void whenDurable(Runnable action, java.util.function.Consumer<RuntimeException> ifLost) {
        whenDurable(action);
    }

    /**
     * Whether a read made on any thread, while another thread writes, shows only durable writes: true only for a
     * store that makes a write visible no sooner than it is durable. The manager then serves plain reads
     * (GET and LIST) off its state thread ({@code api.ApiServer#readingFromTheStore}), as followers do. PostgreSQL:
     * a row is visible to other connections only once its transaction committed, and every write commits before it
     * returns (no group commit). False by default: the file store appends a group's writes to its table before the
     * group's journal force (other readers wait on the table's lock, but Events are appended unforced and a failed
     * force leaves writes in memory), and the state thread's grouped replies are what hold a read back there.
     */
    default boolean readsShowOnlyDurableWrites() {
        return false;
    }

    /** The resourceVersion of the latest write; monotonic. */
    long revision();

    @Override
    void close();
}
