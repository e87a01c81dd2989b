package dev.berth.manager.store;

import dev.berth.manager.testing.ForwardingStore;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * An in-memory store whose pipelined groups ({@link #inOneSyncThen}) wait for the test to say how their sync ended,
 * as the journal's sync thread would: {@link #nextSync()} hands the test each group's outcome in order.
 */
public final class HeldSyncStore extends ForwardingStore {
    private final BlockingQueue<SyncOutcome> syncs = new LinkedBlockingQueue<>();

    public HeldSyncStore() {
        super(new MemoryObjectStore());
    }

    /** The outcome of the next group that ended, waiting up to ten seconds for one. */
    public SyncOutcome nextSync() throws InterruptedException {
        SyncOutcome outcome = syncs.poll(10, TimeUnit.SECONDS);
        if (outcome == null) throw new AssertionError("no group ended within ten seconds");
        return outcome;
    }

    @Override
    public <T> T inOneSyncThen(Supplier<T> work, SyncOutcome afterSync) {
        T result = work.get();
        syncs.add(afterSync);
        return result;
    }
}
