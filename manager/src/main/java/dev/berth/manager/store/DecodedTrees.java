package dev.berth.manager.store;

/**
 * The bound on how many {@link StoredObject}s keep their decoded tree: a ring of the most recently written or
 * decoded ones; whoever falls out of it forgets its tree and parses its bytes again at its next read-only read.
 * So a store of 100,000 objects holds at most {@link #DEFAULT_CAPACITY} trees (about 10 KiB each for a Workload)
 * next to its bytes, and the heap stays flat however many objects it holds. Thread-safe; a remember is a few
 * field writes under one lock.
 */
final class DecodedTrees {
    /** Trees kept at most, by default; {@code -Dberth.store.decodedTrees=N} changes it, 0 keeps none. */
    static final int DEFAULT_CAPACITY = 1024;
    static final DecodedTrees SHARED = new DecodedTrees(Integer.getInteger("berth.store.decodedTrees", DEFAULT_CAPACITY));

    private final StoredObject[] ring;
    private int next;

    DecodedTrees(int capacity) {
        this.ring = new StoredObject[Math.max(0, capacity)];
    }

    boolean keepsAny() {
        return ring.length > 0;
    }

    /** Takes the object in; the object it replaces in the ring forgets its tree. */
    synchronized void remember(StoredObject object) {
        StoredObject evicted = ring[next];
        ring[next] = object;
        next = (next + 1) % ring.length;
        if (evicted != null && evicted != object) evicted.forgetTree();
    }

    int capacity() {
        return ring.length;
    }
}
