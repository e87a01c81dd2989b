package dev.berth.manager.ha;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * Holds a starting replica back from campaigning until its cluster join has settled: until it sees
 * the members it expects (every configured member, itself included), a leader is already known (it
 * joined a formed cluster), or the join timeout has passed since it started (a member that is down
 * must not keep the others from leading for ever).
 *
 * <p>Why: replicas started at the same moment (a StatefulSet starting pods in parallel, containers
 * started together) can each form a cluster of their own before they find one another; Hazelcast
 * merges such clusters a few seconds later, but with a low minMembersToLead each would have elected
 * itself in the meantime. Once settled, a replica stays settled: later member losses are
 * minMembersToLead's business.
 */
final class JoinGate {
    /** Why the join counts as settled, for the log. */
    enum Settled { EXPECTED_MEMBERS_JOINED, LEADER_ALREADY_KNOWN, JOIN_TIMEOUT }

    private final int expectedMembers;
    private final Duration timeout;
    private final Clock clock;
    private final Instant startedAt;
    private volatile Settled settled;

    JoinGate(int expectedMembers, Duration timeout, Clock clock) {
        this.expectedMembers = expectedMembers;
        this.timeout = timeout;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** Whether the join has settled, given the members seen now; leaderKnown is asked only while it has not. */
    boolean settled(int members, BooleanSupplier leaderKnown) {
        return settle(members, leaderKnown) != null;
    }

    /** The reason the join settled (latched at the first check that settles it), or null while it has not. */
    Settled settle(int members, BooleanSupplier leaderKnown) {
        if (settled != null) return settled;
        synchronized (this) {
            if (settled != null) return settled;
            if (members >= expectedMembers) settled = Settled.EXPECTED_MEMBERS_JOINED;
            else if (!clock.instant().isBefore(startedAt.plus(timeout))) settled = Settled.JOIN_TIMEOUT;
            else if (leaderKnown.getAsBoolean()) settled = Settled.LEADER_ALREADY_KNOWN;
            return settled;
        }
    }

    boolean isSettled() {
        return settled != null;
    }

    int expectedMembers() {
        return expectedMembers;
    }

    Duration waited() {
        return Duration.between(startedAt, clock.instant());
    }
}
