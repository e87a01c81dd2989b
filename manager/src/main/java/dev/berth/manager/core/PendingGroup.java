package dev.berth.manager.core;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The pending workloads of one ClusterQueue and LocalQueue that a known misfit matches all or none of:
 * the same priority and the same single pod set (count, requests and placement constraints), so one
 * check of the group answers for every member. Workloads with several pod sets or partial admission, which no misfit
 * matches, share the one group of their queue that is never skipped.
 */
final class PendingGroup {
    /** Groups ordered by their first member, so the first group holds the queue's head. */
    static final Comparator<PendingGroup> BY_FIRST_MEMBER = (a, b) -> WorkloadEntry.compareInQueueOrder(a.first, b.first);

    final PendingShape shape;
    /** The LocalQueue of every member: admission fair sharing orders groups by their LocalQueue's usage. */
    final String localQueueKey;
    private final TreeSet<WorkloadEntry> members = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
    /** The first member in queue order, or null when empty; the order of groups reads it on every comparison. */
    private WorkloadEntry first;
    /** Skipped until the queue's capacity changes: a known misfit of this generation matches its members. */
    boolean knownMisfit;

    PendingGroup(PendingShape shape, String localQueueKey) {
        this.shape = shape;
        this.localQueueKey = localQueueKey;
    }

    /** What a pending queue finds a group by: members share a shape and a LocalQueue. */
    record Key(String localQueueKey, PendingShape shape) {
        static Key of(WorkloadEntry entry) {
            return new Key(entry.localQueueKey, PendingShape.of(entry));
        }
    }

    Key key() {
        return new Key(localQueueKey, shape);
    }

    /** False for the group of workloads that no misfit can match. */
    boolean matchable() {
        return shape != PendingShape.UNMATCHABLE;
    }

    WorkloadEntry first() {
        return first;
    }

    boolean isEmpty() {
        return first == null;
    }

    int size() {
        return members.size();
    }

    Iterable<WorkloadEntry> members() {
        return members;
    }

    /** Adds a member; call only while the group is outside any set ordered by {@link #BY_FIRST_MEMBER}, or when it stays behind the first. */
    void add(WorkloadEntry entry) {
        members.add(entry);
        if (first == null || WorkloadEntry.compareInQueueOrder(entry, first) < 0) first = entry;
    }

    WorkloadEntry pollFirst() {
        WorkloadEntry taken = members.pollFirst();
        first = members.isEmpty() ? null : members.first();
        return taken;
    }

    /** Removes a member; the same caution as {@link #add} when it is the first. */
    boolean remove(WorkloadEntry entry) {
        if (entry == first) {
            pollFirst();
            return true;
        }
        return members.remove(entry);
    }
}
