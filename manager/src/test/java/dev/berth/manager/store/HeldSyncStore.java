package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/**
 * An in-memory store whose pipelined groups ({@link #inOneSyncThen}) wait for the test to say how their sync ended,
 * as the journal's sync thread would: {@link #nextSync()} hands the test each group's outcome in order.
 */
public final class HeldSyncStore implements ObjectStore {
    private final MemoryObjectStore store = new MemoryObjectStore();
    private final BlockingQueue<SyncOutcome> syncs = new LinkedBlockingQueue<>();

    /** The outcome of the next group that ended, waiting up to ten seconds for one. */
    public SyncOutcome nextSync() throws InterruptedException {
        SyncOutcome outcome = syncs.poll(10, java.util.concurrent.TimeUnit.SECONDS);
        if (outcome == null) throw new AssertionError("no group ended within ten seconds");
        return outcome;
    }

    @Override
    public <T> T inOneSyncThen(Supplier<T> work, SyncOutcome afterSync) {
        T result = work.get();
        syncs.add(afterSync);
        return result;
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
    public long revision() {
        return store.revision();
    }

    @Override
    public void close() {
        store.close();
    }
}
