package dev.berth.manager.store;

/**
 * What a durable store does to an object's JSON on its way to disk or the database and back
 * (encryption at rest, {@code dev.berth.manager.store.encryption}). The in-memory table and the
 * API always see the plain object.
 */
public interface StorageTransformer {
    /** Stores everything as it is. */
    StorageTransformer IDENTITY = new StorageTransformer() {
        @Override
        public byte[] toStorage(ObjectKey key, byte[] json) {
            return json;
        }

        @Override
        public byte[] fromStorage(ObjectKey key, byte[] stored) {
            return stored;
        }
    };

    /** The bytes to store for this object (a JSON object). */
    byte[] toStorage(ObjectKey key, byte[] json);

    /**
     * The object's JSON back from stored bytes.
     *
     * @throws IllegalStateException when they cannot be read (a missing or wrong key), with a message saying which
     */
    byte[] fromStorage(ObjectKey key, byte[] stored);
}
