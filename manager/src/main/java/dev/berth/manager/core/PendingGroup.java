package dev.berth.manager.core;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * The pending workloads of one ClusterQueue that a known misfit matches all or none of: the same
 * priority and the same single pod set (count, requests and placement constraints), so one check of the
 * group answers for every member. Workloads with several pod sets or partial admission, which no misfit
 * matches, share the one group of their queue that is never skipped.
 */
final class PendingGroup {
    /** Groups ordered by their first member, so the first group holds the queue's head. */
    static final Comparator<PendingGroup> BY_FIRST_MEMBER =
            (a, b) -> WorkloadEntry.compareInQueueOrder(a.members.first(), b.members.first());

    final PendingShape shape;
    final TreeSet<WorkloadEntry> members = new TreeSet<>(WorkloadEntry.QUEUE_ORDER);
    /** Skipped until the queue's capacity changes: a known misfit of this generation matches its members. */
    boolean knownMisfit;

    PendingGroup(PendingShape shape) {
        this.shape = shape;
    }

    /** False for the group of workloads that no misfit can match. */
    boolean matchable() {
        return shape != PendingShape.UNMATCHABLE;
    }

    /** Any member: they all answer a misfit check alike. */
    WorkloadEntry representative() {
        return members.first();
    }
}
