package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.model.WorkloadKey;

/**
 * One copy in a cluster's listing, as the edge reads it from the RemoteWorkload: what the listing decisions
 * ({@link ListingDecision}) look at, and nothing of the wire type.
 *
 * @param reservation   the spec's reservation flag (null when the manager never set it: a one-phase copy)
 * @param awaitsCommit  an uncommitted reservation: it never started
 * @param leaseSeconds  the lease the copy was stamped with
 * @param report        what its agent reports of it, or null when it has no status yet
 * @param statusAttemptId the attempt the status is about (null from an older agent): another attempt's status is not this copy's
 */
public record ListedCopy(WorkloadKey key, String attemptId, Boolean reservation, boolean awaitsCommit, long fencingEpoch,
        long leaseSeconds, CopyReport report, String statusAttemptId, String resourceVersion) {

    /** True when the status is this copy's own (an older agent names no attempt). */
    public boolean statusIsOwn() {
        return statusAttemptId == null || attemptId.equals(statusAttemptId);
    }

    /** The copy was committed earlier (its commit's answer lost, or a previous leader's). */
    boolean committed() {
        return Boolean.FALSE.equals(reservation);
    }

    /** Its agent reports a phase, about this attempt. */
    boolean reportsPhase() {
        return report != null && report.phase() != null && statusIsOwn();
    }
}
