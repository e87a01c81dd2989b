package dev.berth.manager.store;

/** One durable write: PUT stores the object at the key, DELETE removes it. */
record WriteRecord(Op op, StoredObject object) {
    enum Op { PUT, DELETE }

    ObjectKey key() {
        return object.key();
    }

    /** The store revision this write took; for DELETE the object carries it as its version. */
    long revision() {
        return object.resourceVersion();
    }
}
