package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.Set;

/**
 * Can a create the cluster never acknowledged still start a copy there? Pure, over the hold, the
 * highest epoch that create can carry, and one poll of the cluster, against a given instant.
 *
 * <p>An unconfirmed create is held until the lease it carried has run out ({@link RedispatchGate}):
 * until then it may still arrive. It can no longer start a copy, earlier, when both hold:
 * <ol>
 *   <li>the cluster's agent has accepted a fencing epoch newer than the create's (read from its heartbeat
 *   Lease): the agent refuses every create stamped with an older epoch from then on, and its mark never
 *   goes down (persisted across agent restarts);</li>
 *   <li>a listing of the cluster's attempts that started after that reading does not show the attempt: a
 *   copy the agent admitted before it raised its mark was in the API server before that reading, and
 *   nobody but the manager deletes it.</li>
 * </ol>
 * Neither proves that a copy which landed earlier and was deleted by someone else has stopped its pods,
 * so the hold is not lifted at once: it becomes a hold on the attempt's pods ({@link OldAttemptFence#raised}),
 * lifted by {@link RedispatchGate} once two listings a poll apart found none running.
 */
public final class SupersededCreate {
    private SupersededCreate() {}

    /**
     * One poll of a cluster: the agent's accepted epoch and when it was read, then when the listing of
     * this manager's attempts there started and the attempt ids it showed.
     */
    public record Poll(long agentEpoch, Instant agentEpochReadAt, Instant listingStartedAt, Set<String> listedAttemptIds) {
        public Poll {
            listedAttemptIds = Set.copyOf(listedAttemptIds);
        }
    }

    /** The answer: whether the late create is refused from now on, and why (or why not), for a log line. */
    public record Verdict(boolean superseded, String message) {}

    /**
     * @param createEpochAtMost the highest fencing epoch the unconfirmed create can carry: the epoch of the
     *                          manager that sent it (an earlier leader's is lower than the current one)
     */
    public static Verdict decide(OldAttemptFence fence, long createEpochAtMost, Poll poll, Instant now) {
        String old = "attempt " + fence.attemptId() + " on cluster " + fence.cluster();
        if (!fence.unconfirmedCreate()) return new Verdict(false, "the hold on " + old + " is not on an unconfirmed create");
        if (!now.isBefore(fence.leaseGoneAt())) {
            return new Verdict(false, "the lease of " + old + " has run out already; the lease lets it go");
        }
        if (poll.agentEpoch() <= createEpochAtMost) {
            return new Verdict(false, "the agent of cluster " + fence.cluster() + " accepted epoch " + poll.agentEpoch()
                    + ", not newer than the epoch " + createEpochAtMost + " the create of " + old + " may carry: it would still start it");
        }
        if (poll.listingStartedAt().isBefore(poll.agentEpochReadAt())) {
            return new Verdict(false, "the listing of cluster " + fence.cluster() + " started before its agent's epoch was read");
        }
        if (poll.listedAttemptIds().contains(fence.attemptId())) {
            return new Verdict(false, old + " is listed there: the copy landed");
        }
        return new Verdict(true, "the agent of cluster " + fence.cluster() + " accepted epoch " + poll.agentEpoch()
                + ", newer than the epoch " + createEpochAtMost + " of " + old + ", before a listing that does not show it:"
                + " the create is refused if it ever arrives; its pods are checked before redispatch");
    }

    /** The hold that replaces a superseded one: on the attempt's pods, keeping when it was raised and its lease bound. */
    public static OldAttemptFence podHoldFor(OldAttemptFence superseded) {
        return OldAttemptFence.raised(superseded.cluster(), superseded.attemptId(), superseded.since(), superseded.leaseGoneAt());
    }
}
