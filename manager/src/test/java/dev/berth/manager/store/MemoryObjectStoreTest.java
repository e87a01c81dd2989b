package dev.berth.manager.store;

class MemoryObjectStoreTest extends ObjectStoreContract {
    @Override
    ObjectStore newStore() {
        return new MemoryObjectStore(CLOCK);
    }
}
