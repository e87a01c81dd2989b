package dev.berth.manager.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * One stored version of an object. The object is held as compact JSON bytes rather than a tree, so
 * a store of many objects stays small; {@link #object()} parses a fresh copy the caller may change.
 */
public final class StoredObject {
    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectKey key;
    private final long resourceVersion;
    private final byte[] json;

    private StoredObject(ObjectKey key, long resourceVersion, byte[] json) {
        this.key = key;
        this.resourceVersion = resourceVersion;
        this.json = json;
    }

    public static StoredObject of(ObjectKey key, long resourceVersion, ObjectNode object) {
        try {
            return new StoredObject(key, resourceVersion, JSON.writeValueAsBytes(object));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Wraps bytes read back from durable storage; they must be a JSON object. */
    static StoredObject fromJson(ObjectKey key, long resourceVersion, byte[] json) {
        return new StoredObject(key, resourceVersion, json.clone());
    }

    public ObjectKey key() {
        return key;
    }

    public long resourceVersion() {
        return resourceVersion;
    }

    /** A fresh, mutable copy of the stored object. */
    public ObjectNode object() {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The stored JSON; a copy. */
    public byte[] json() {
        return json.clone();
    }

    byte[] jsonUnsafe() {
        return json;
    }

    public int size() {
        return json.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredObject other && other.key.equals(key)
                && other.resourceVersion == resourceVersion && Arrays.equals(other.json, json);
    }

    @Override
    public int hashCode() {
        return key.hashCode() * 31 + Long.hashCode(resourceVersion);
    }

    @Override
    public String toString() {
        return "StoredObject[" + key + "@" + resourceVersion + "]";
    }
}
