package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A view of a store for {@code dryRun=All}: reads go to the real store; writes check the same
 * preconditions (exists, absent, resourceVersion) and return the object as it would be stored, with
 * the next resourceVersion, but store nothing.
 */
public final class DryRunObjectStore implements ObjectStore {
    private final ObjectStore real;
    private final ObjectStamping stamping = new ObjectStamping(Clock.systemUTC());

    public DryRunObjectStore(ObjectStore real) {
        this.real = real;
    }

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
        return real.get(key);
    }

    @Override
    public List<StoredObject> list(String resource, String namespaceOrNull) {
        return real.list(resource, namespaceOrNull);
    }

    @Override
    public StoredObject create(ObjectKey key, ObjectNode object) {
        if (real.get(key).isPresent()) throw new AlreadyExistsException(key, key + " already exists");
        long next = real.revision() + 1;
        return StoredObject.owning(key, next, stamping.created(object, next));
    }

    @Override
    public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        StoredObject existing = current(key, expectedResourceVersionOrNull);
        long next = real.revision() + 1;
        return StoredObject.owning(key, next, stamping.replaced(existing.readOnlyObject(), object, next));
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        StoredObject existing = current(key, expectedResourceVersionOrNull);
        long next = real.revision() + 1;
        return StoredObject.owning(key, next, stamping.statusReplaced(existing.readOnlyObject(), status, next));
    }

    @Override
    public StoredObject delete(ObjectKey key) {
        return current(key, null);
    }

    @Override
    public long revision() {
        return real.revision();
    }

    /** The real store stays open: this view does not own it. */
    @Override
    public void close() { }

    private StoredObject current(ObjectKey key, String expectedResourceVersion) {
        StoredObject existing = real.get(key).orElseThrow(() -> new NotFoundException(key, key + " not found"));
        if (expectedResourceVersion != null && !expectedResourceVersion.isEmpty()
                && !expectedResourceVersion.equals(Long.toString(existing.resourceVersion()))) {
            throw new ConflictException(key, key + " has resourceVersion " + existing.resourceVersion() + ", not " + expectedResourceVersion);
        }
        return existing;
    }
}
