package dev.berth.manager.store;

import java.time.Clock;

/** An {@link ObjectStore} with the same semantics as the durable ones and no durability: for tests and benchmarks. */
public final class MemoryObjectStore extends TableBackedStore {
    public MemoryObjectStore(Clock clock) {
        super(new ObjectTable(clock));
    }

    public MemoryObjectStore() {
        this(Clock.systemUTC());
    }
}
