package dev.berth.manager.store;

/** Thrown by {@link ObjectStore} writes; nothing was written. */
public class ConflictException extends RuntimeException {
    private final ObjectKey key;

    public ConflictException(ObjectKey key, String message) {
        super(message);
        this.key = key;
    }

    public ObjectKey key() {
        return key;
    }
}
