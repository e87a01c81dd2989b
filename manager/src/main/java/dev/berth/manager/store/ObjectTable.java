package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The in-memory state of a store and the write rules; each write is handed to a {@link WriteLog}
 * before it becomes visible. One lock guards everything: writes are rare next to the work behind them.
 */
final class ObjectTable implements ObjectStore {
    private final TreeMap<ObjectKey, StoredObject> objects = new TreeMap<>();
    private final ObjectStamping stamping;
    private WriteLog log = WriteLog.NONE;
    private long revision;

    ObjectTable(Clock clock) {
        this.stamping = new ObjectStamping(clock);
    }

    synchronized void logTo(WriteLog log) {
        this.log = log;
    }

    /** Applies a write read back from durable storage, without logging it again. */
    synchronized void apply(WriteRecord record) {
        if (record.op() == WriteRecord.Op.PUT) objects.put(record.key(), record.object());
        else objects.remove(record.key());
        revision = Math.max(revision, record.revision());
    }

    synchronized void restoreRevision(long revision) {
        this.revision = Math.max(this.revision, revision);
    }

    synchronized List<StoredObject> all() {
        return new ArrayList<>(objects.values());
    }

    @Override
    public synchronized Optional<StoredObject> get(ObjectKey key) {
        return Optional.ofNullable(objects.get(key));
    }

    @Override
    public synchronized List<StoredObject> list(String resource, String namespaceOrNull) {
        ObjectKey from = new ObjectKey(resource, namespaceOrNull == null ? "" : namespaceOrNull, "");
        List<StoredObject> result = new ArrayList<>();
        for (StoredObject object : objects.tailMap(from, true).values()) {
            ObjectKey key = object.key();
            if (!key.resource().equals(resource)) break;
            if (namespaceOrNull != null && !key.namespace().equals(namespaceOrNull)) break;
            result.add(object);
        }
        return result;
    }

    @Override
    public synchronized StoredObject create(ObjectKey key, ObjectNode object) {
        if (objects.containsKey(key)) throw new AlreadyExistsException(key, key + " already exists");
        long next = revision + 1;
        return write(WriteRecord.Op.PUT, StoredObject.owning(key, next, stamping.created(object, next)));
    }

    @Override
    public synchronized StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        StoredObject existing = current(key, expectedResourceVersionOrNull);
        long next = revision + 1;
        return write(WriteRecord.Op.PUT, StoredObject.owning(key, next, stamping.replaced(existing.readOnlyObject(), object, next)));
    }

    @Override
    public synchronized StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        StoredObject existing = current(key, expectedResourceVersionOrNull);
        long next = revision + 1;
        return write(WriteRecord.Op.PUT, StoredObject.owning(key, next, stamping.statusReplaced(existing.readOnlyObject(), status, next)));
    }

    @Override
    public synchronized StoredObject delete(ObjectKey key) {
        StoredObject existing = current(key, null);
        long next = revision + 1;
        write(WriteRecord.Op.DELETE, StoredObject.fromJson(key, next, existing.jsonUnsafe()));
        return existing;
    }

    /**
     * Runs the work holding the table's lock, so no other thread reads or writes until the group's
     * writes are durable; the log syncs them once at the end (group commit).
     */
    @Override
    public synchronized <T> T inOneSync(java.util.function.Supplier<T> work) {
        WriteLog group = log;
        return inGroup(group, work, group::endGroup);
    }

    /**
     * As {@link #inOneSync}, but returns once the group's writes are applied and handed to the log, without waiting for
     * their sync: afterSync runs once they are durable (pipelined group commit). Other threads may read the group's
     * writes before then; the manager only reads the file store on its state thread and answers through afterSync.
     */
    @Override
    public synchronized <T> T inOneSyncThen(java.util.function.Supplier<T> work, SyncOutcome afterSync) {
        WriteLog group = log;
        return inGroup(group, work, () -> group.endGroupThen(afterSync));
    }

    /** The group ends, and the log syncs or hands on its writes, whether the work returned or threw. */
    private static <T> T inGroup(WriteLog group, java.util.function.Supplier<T> work, Runnable end) {
        group.beginGroup();
        T result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            end.run();
            throw e;
        }
        end.run();
        return result;
    }

    @Override
    public synchronized void syncNow() {
        log.syncNow();
    }

    @Override
    public synchronized long revision() {
        return revision;
    }

    @Override
    public synchronized void close() {
        log.close();
        log = WriteLog.NONE;
    }

    private StoredObject current(ObjectKey key, String expectedResourceVersion) {
        StoredObject existing = objects.get(key);
        if (existing == null) throw new NotFoundException(key, key + " not found");
        if (expectedResourceVersion != null && !expectedResourceVersion.isEmpty()
                && !expectedResourceVersion.equals(Long.toString(existing.resourceVersion()))) {
            throw new ConflictException(key, key + " has resourceVersion " + existing.resourceVersion()
                    + ", not " + expectedResourceVersion);
        }
        return existing;
    }

    private StoredObject write(WriteRecord.Op op, StoredObject object) {
        WriteRecord record = new WriteRecord(op, object);
        log.append(record, this);
        apply(record);
        return object;
    }
}
