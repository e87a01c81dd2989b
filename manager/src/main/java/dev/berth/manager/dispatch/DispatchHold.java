package dev.berth.manager.dispatch;

import java.time.Instant;

/**
 * One entry of a workload's {@code status.dispatchHolds}: the durable part of an {@link OldAttemptFence},
 * so that a restarted manager or a new leader keeps holding the workload back from redispatch.
 *
 * @param cluster           the cluster that may hold the old attempt
 * @param attemptId         the old attempt
 * @param unconfirmedCreate the cluster never acknowledged the attempt's create (else: evicted from a lost cluster)
 * @param since             when the hold was raised
 * @param leaseGoneAt       when the old attempt's last lease has surely run out
 * @param agentLost         raised while the cluster's agent was lost ({@link OldAttemptFence#agentLost})
 */
public record DispatchHold(String cluster, String attemptId, boolean unconfirmedCreate, Instant since, Instant leaseGoneAt,
                           boolean agentLost) {

    /** A hold raised while the agent was not known to be lost. */
    public DispatchHold(String cluster, String attemptId, boolean unconfirmedCreate, Instant since, Instant leaseGoneAt) {
        this(cluster, attemptId, unconfirmedCreate, since, leaseGoneAt, false);
    }

    public static DispatchHold of(OldAttemptFence fence) {
        return new DispatchHold(fence.cluster(), fence.attemptId(), fence.unconfirmedCreate(), fence.since(), fence.leaseGoneAt(),
                fence.agentLost());
    }

    /** The fence this hold restores (its pod listings start over). */
    public OldAttemptFence toFence() {
        return unconfirmedCreate ? OldAttemptFence.unconfirmed(cluster, attemptId, since, leaseGoneAt)
                : OldAttemptFence.raised(cluster, attemptId, since, leaseGoneAt, agentLost);
    }
}
