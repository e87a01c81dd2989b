package dev.berth.manager.api;

import dev.berth.manager.store.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The bounded memory behind consistent pages: the objects a paged LIST had not yet returned when its
 * first page was read, kept by snapshot id. Bounded three ways, oldest dropped first: by age (as etcd
 * compacts after about five minutes), by count, and by the stored bytes they pin. A dropped snapshot's
 * token answers 410 Expired. The stored objects are immutable and shared with the store, so a snapshot
 * costs only the versions that changed since it was taken. Confined to the state thread.
 */
final class ListSnapshots {
    static final Duration DEFAULT_TTL = Duration.ofMinutes(5);
    static final int DEFAULT_MAX_SNAPSHOTS = 64;
    static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    /** The remainder of one list, sorted by key, as it was at resourceVersion. */
    record Snapshot(String id, String resource, String namespaceOrEmpty, long resourceVersion, List<StoredObject> remainder,
                    long bytes, Instant taken) {}

    private final Clock clock;
    private final Duration ttl;
    private final int maxSnapshots;
    private final long maxBytes;
    private final Map<String, Snapshot> snapshots = new LinkedHashMap<>();
    private long bytes;

    ListSnapshots(Clock clock, Duration ttl, int maxSnapshots, long maxBytes) {
        this.clock = clock;
        this.ttl = ttl;
        this.maxSnapshots = maxSnapshots;
        this.maxBytes = maxBytes;
    }

    static ListSnapshots defaults() {
        return new ListSnapshots(Clock.systemUTC(), DEFAULT_TTL, DEFAULT_MAX_SNAPSHOTS, DEFAULT_MAX_BYTES);
    }

    /** Keeps the remainder of a list; empty when it alone is larger than the whole budget. */
    Optional<Snapshot> keep(String resource, String namespaceOrEmpty, long resourceVersion, List<StoredObject> remainder) {
        long size = 0;
        for (StoredObject object : remainder) size += object.size() + 64L;
        if (size > maxBytes) return Optional.empty();
        expire();
        while (!snapshots.isEmpty() && (snapshots.size() >= maxSnapshots || bytes + size > maxBytes)) dropOldest();
        Snapshot snapshot = new Snapshot(UUID.randomUUID().toString(), resource, namespaceOrEmpty, resourceVersion,
                List.copyOf(remainder), size, clock.instant());
        snapshots.put(snapshot.id(), snapshot);
        bytes += size;
        return Optional.of(snapshot);
    }

    /** The snapshot a token names, unless it has expired or been dropped. */
    Optional<Snapshot> find(String id) {
        expire();
        return Optional.ofNullable(snapshots.get(id));
    }

    /** Forgets a snapshot whose last page was read. */
    void release(String id) {
        Snapshot removed = snapshots.remove(id);
        if (removed != null) bytes -= removed.bytes();
    }

    int size() {
        return snapshots.size();
    }

    private void expire() {
        Instant oldestKept = clock.instant().minus(ttl);
        Iterator<Snapshot> it = snapshots.values().iterator();
        while (it.hasNext()) {
            Snapshot snapshot = it.next();
            if (!snapshot.taken().isBefore(oldestKept)) break;
            bytes -= snapshot.bytes();
            it.remove();
        }
    }

    private void dropOldest() {
        Iterator<Snapshot> it = snapshots.values().iterator();
        Snapshot oldest = it.next();
        bytes -= oldest.bytes();
        it.remove();
    }
}
