package dev.berth.manager.dispatch;

import java.time.Instant;

/**
 * A workload evicted from a lost cluster whose API still answers, held back from redispatch until
 * the old attempt's pods there are confirmed stopped. Immutable: every listing of the old attempt's
 * pods gives a new fence ({@link #listed}).
 *
 * @param cluster       the lost cluster that holds the old attempt
 * @param attemptId     the old attempt
 * @param since         when the workload was evicted and the fence raised
 * @param leaseGoneAt   when the old attempt's last lease has surely run out (last renewal + lease + margin)
 * @param livePods      pods of the old attempt not yet Succeeded or Failed at the latest listing; -1 before any
 * @param emptyListings consecutive listings that found no live pod of the old attempt
 */
public record OldAttemptFence(String cluster, String attemptId, Instant since, Instant leaseGoneAt, int livePods, int emptyListings) {

    public static OldAttemptFence raised(String cluster, String attemptId, Instant since, Instant leaseGoneAt) {
        return new OldAttemptFence(cluster, attemptId, since, leaseGoneAt, -1, 0);
    }

    /** The old attempt's objects were deleted again and its pods listed: livePods of them still run. */
    public OldAttemptFence listed(int live) {
        return new OldAttemptFence(cluster, attemptId, since, leaseGoneAt, live, live == 0 ? emptyListings + 1 : 0);
    }
}
