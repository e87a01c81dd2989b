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
 *
 * <p>The versions most recently written or read through {@link #readOnlyObject()} also keep their decoded
 * tree ({@link DecodedTrees}: at most about a thousand, the oldest forget theirs), shared by the readers that
 * only look at a few fields and by the store's own stamping of the next write, which then need no parse and
 * no copy. That tree is never changed; {@link #object()} never hands it out.
 */
public final class StoredObject {
    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectKey key;
    private final long resourceVersion;
    private final byte[] json;
    /** The parse of {@link #json}, or null; read-only once set, dropped when {@link DecodedTrees} evicts it. */
    private volatile ObjectNode tree;

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

    /**
     * As {@link #of}, for a tree the store itself just made (stamped) and nobody else holds: it is kept as the
     * decoded tree when it is what parsing the bytes would give ({@link CanonicalTree}), saving the first read's parse.
     */
    static StoredObject owning(ObjectKey key, long resourceVersion, ObjectNode object) {
        StoredObject stored = of(key, resourceVersion, object);
        if (DecodedTrees.SHARED.keepsAny() && CanonicalTree.test(object)) {
            stored.tree = object;
            DecodedTrees.SHARED.remember(stored);
        }
        return stored;
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

    /**
     * A fresh, mutable copy of the stored object, parsed from the bytes. Not copied from the kept tree: measured in
     * the API throughput run (2026-12-03), a deep copy of a kept Workload cost the state thread as much as a parse
     * (its nodes lie scattered in the old generation; the bytes are one array).
     */
    public ObjectNode object() {
        ObjectNode kept = tree; // read once: another thread's read-only read may evict it meanwhile
        assert kept == null || unchanged(kept) : this + ": its shared tree was changed by a reader";
        return parse();
    }

    /**
     * The stored object itself, shared with every other reader of this version and without a copy: for code that
     * only reads a few fields (an event's involved object, a status compared, the store's stamping of the next
     * write). It must never be changed, nor handed to code that might: take {@link #object()} for that. With assertions enabled (the tests), every read checks
     * that the shared tree is still what the stored bytes say, so a reader that changed it fails the next read.
     */
    public ObjectNode readOnlyObject() {
        ObjectNode decoded = tree;
        assert decoded == null || unchanged(decoded) : this + ": its shared tree was changed by a reader";
        if (decoded != null) return decoded;
        ObjectNode parsed = parse();
        if (DecodedTrees.SHARED.keepsAny()) {
            tree = parsed;
            DecodedTrees.SHARED.remember(this);
        }
        return parsed;
    }

    void forgetTree() {
        tree = null;
    }

    boolean holdsTree() {
        return tree != null;
    }

    private boolean unchanged(ObjectNode decoded) {
        return decoded.equals(parse());
    }

    private ObjectNode parse() {
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
