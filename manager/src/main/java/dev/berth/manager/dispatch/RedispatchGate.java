package dev.berth.manager.dispatch;

import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.time.Instant;

/**
 * May a workload held back by an {@link OldAttemptFence} be dispatched again now? Pure, over the
 * fence and its cluster's health, against a given instant. A fence on an
 * unconfirmed create lets go only when its lease has run out; a fence after a lost agent, in order:
 * <ol>
 *   <li>the old attempt's pods are confirmed gone: {@value #EMPTY_LISTINGS_NEEDED} listings in a row
 *   (one poll apart) found none running, so a pod a controller created between the deletion and the
 *   first listing is caught by the second;</li>
 *   <li>the cluster's API stopped answering (Unreachable) and the old attempt's lease has surely run
 *   out: the partition path, where the agent stops its own copy. Not for a fence raised while the agent
 *   was lost ({@link OldAttemptFence#agentLost}, kept in the workload's status for a new leader), nor
 *   where the health given, the fences' one ({@link FailoverDecision#fenceHealth}), says the agent was
 *   last seen lost: no agent is known to stop its copy there;</li>
 *   <li>the wait is bounded: after maxWait the workload goes anyway, and says so.</li>
 * </ol>
 * Otherwise it waits, with a message that says for what.
 */
public final class RedispatchGate {
    public static final int EMPTY_LISTINGS_NEEDED = 2;

    /** The answer: whether to redispatch now, a reason code and a message a person can act on. */
    public record Verdict(boolean mayRedispatch, String reason, String message) {}

    public static final String WAITING = Conditions.Reasons.OLD_PODS_RUNNING;
    public static final String PODS_STOPPED = Conditions.Reasons.OLD_PODS_STOPPED;
    public static final String LEASE_EXPIRED = Conditions.Reasons.OLD_LEASE_EXPIRED;
    public static final String WAIT_EXCEEDED = Conditions.Reasons.POD_STOP_WAIT_EXCEEDED;
    public static final String UNCONFIRMED = Conditions.Reasons.DISPATCH_UNCONFIRMED;

    private final Duration maxWait;

    public RedispatchGate(Duration maxWait) {
        if (maxWait.isNegative() || maxWait.isZero()) throw new IllegalArgumentException("maxWait must be positive, got " + maxWait);
        this.maxWait = maxWait;
    }

    /** The latest instant the fence holds the workload back. */
    public Instant deadline(OldAttemptFence fence) {
        return fence.since().plus(maxWait);
    }

    public Verdict decide(OldAttemptFence fence, ClusterHealth health, Instant now) {
        String old = "attempt " + fence.attemptId() + " on cluster " + fence.cluster();
        if (fence.unconfirmedCreate()) return decideUnconfirmed(fence, old, now);
        if (fence.emptyListings() >= EMPTY_LISTINGS_NEEDED) {
            return new Verdict(true, PODS_STOPPED, "the pods of " + old + " are stopped and its objects deleted");
        }
        if (health == ClusterHealth.UNREACHABLE && !fence.agentLost() && !now.isBefore(fence.leaseGoneAt())) {
            return new Verdict(true, LEASE_EXPIRED, "cluster " + fence.cluster() + " no longer answers and the lease of " + old
                    + " ran out at " + fence.leaseGoneAt() + ", so its agent has stopped it");
        }
        if (!now.isBefore(deadline(fence))) {
            return new Verdict(true, WAIT_EXCEEDED, "gave up waiting " + maxWait.toSeconds() + "s for the pods of " + old
                    + " to stop (" + running(fence) + "); redispatched anyway");
        }
        return new Verdict(false, WAITING, "waiting for the old " + old + " to stop its pods before redispatch ("
                + running(fence) + "; its objects there are being deleted); redispatched at the latest at " + deadline(fence));
    }

    /**
     * A create the cluster never acknowledged may still arrive, whatever listings show meanwhile: only
     * the end of the lease it carried (after which the agent refuses to start it) lets the workload go.
     */
    private static Verdict decideUnconfirmed(OldAttemptFence fence, String old, Instant now) {
        if (!now.isBefore(fence.leaseGoneAt())) {
            return new Verdict(true, LEASE_EXPIRED, "the dispatch of " + old + " was never confirmed and its lease ran out at "
                    + fence.leaseGoneAt() + ", so it can no longer start there");
        }
        return new Verdict(false, UNCONFIRMED, "the dispatch of " + old + " was never confirmed and may still arrive there;"
                + " dispatched again once its lease has run out, at " + fence.leaseGoneAt());
    }

    private static String running(OldAttemptFence fence) {
        if (fence.livePods() < 0) return "not listed yet";
        if (fence.livePods() == 0) return "none running at the last listing, confirming";
        return fence.livePods() + " pod(s) still running";
    }
}
