package dev.berth.manager.dispatch;

import java.time.Instant;

/**
 * A workload held back from redispatch because an older attempt of it may still run, or start, on a
 * cluster. Two kinds:
 * <ul>
 *   <li>evicted from a lost cluster whose API still answers (or whose agent was seen lost before it stopped answering;
 *   {@code agentLost}), or evicted while running: held until the old attempt's pods there are confirmed stopped;</li>
 *   <li>{@code unconfirmedCreate}: the create of the attempt was never acknowledged (it timed out, or
 *   the attempt went missing from the cluster's listings), so it may still arrive there: held until
 *   the lease it carried has surely run out, after which the agent refuses to start it.</li>
 * </ul>
 * Immutable: every listing of the old attempt's pods gives a new fence ({@link #listed}).
 *
 * @param cluster           the cluster that may hold the old attempt
 * @param attemptId         the old attempt
 * @param since             when the fence was raised
 * @param leaseGoneAt       when the old attempt's last lease has surely run out (last renewal + lease + margin)
 * @param livePods          pods of the old attempt not yet Succeeded or Failed at the latest listing; -1 before any
 * @param emptyListings     consecutive listings that found no live pod of the old attempt
 * @param unconfirmedCreate the cluster never acknowledged the attempt's create
 * @param agentLost         raised while the cluster's agent was lost (or last seen lost): no agent is known to stop the
 *                          copy when its lease runs out, so the lease alone never lifts the fence
 */
public record OldAttemptFence(String cluster, String attemptId, Instant since, Instant leaseGoneAt, int livePods, int emptyListings,
                              boolean unconfirmedCreate, boolean agentLost) {

    public static OldAttemptFence raised(String cluster, String attemptId, Instant since, Instant leaseGoneAt) {
        return raised(cluster, attemptId, since, leaseGoneAt, false);
    }

    /** A fence on the attempt's pods; {@code agentLost} when its cluster's agent is lost. */
    public static OldAttemptFence raised(String cluster, String attemptId, Instant since, Instant leaseGoneAt, boolean agentLost) {
        return new OldAttemptFence(cluster, attemptId, since, leaseGoneAt, -1, 0, false, agentLost);
    }

    /** A fence on an attempt whose create the cluster never acknowledged. */
    public static OldAttemptFence unconfirmed(String cluster, String attemptId, Instant since, Instant leaseGoneAt) {
        return new OldAttemptFence(cluster, attemptId, since, leaseGoneAt, -1, 0, true, false);
    }

    /** The old attempt's objects were deleted again and its pods listed: livePods of them still run. */
    public OldAttemptFence listed(int live) {
        return new OldAttemptFence(cluster, attemptId, since, leaseGoneAt, live, live == 0 ? emptyListings + 1 : 0, unconfirmedCreate,
                agentLost);
    }
}
