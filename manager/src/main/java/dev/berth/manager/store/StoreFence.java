package dev.berth.manager.store;

/**
 * A condition every write of a fenced store checks in its own transaction: the object at key holds
 * value in its numeric field. The manager uses it for its fencing epoch, so a deposed leader's writes
 * are refused once a newer leader raised the epoch.
 */
public record StoreFence(ObjectKey key, String field, long value) {
    public StoreFence {
        if (key == null || field == null || field.isBlank()) throw new IllegalArgumentException("a fence needs a key and a field");
    }
}
