package dev.berth.manager.store;

/** One write to a store, as watchers see it: the object after the write, or as it was before a delete. */
public record StoreChange(Type type, StoredObject object) {
    public enum Type { ADDED, MODIFIED, DELETED }
}
