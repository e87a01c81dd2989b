package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.util.List;

/** What a fence decision ({@link FenceDecision}) asks the edge to do, in the order it must be done. */
public sealed interface FenceCommand {

    /** Keep the workload's fences in its status (status.dispatchHolds), so a new leader holds it too; none removes them. */
    record PersistHolds(WorkloadKey key, List<OldAttemptFence> fences) implements FenceCommand {
        public PersistHolds {
            fences = List.copyOf(fences);
        }
    }

    /**
     * Delete the old attempt's objects on the cluster (its RemoteWorkload while it carries that attempt id, its Jobs and
     * pods) and list its pods; the answer goes to {@link FenceDecision#listed} or {@link FenceDecision#listingFailed}.
     */
    record DeleteAndList(WorkloadKey key, String cluster, String attemptId) implements FenceCommand {}

    /** The gate let the fence go: log it and record the cluster's event, a Warning when it {@link #gaveUp}. */
    record Lifted(WorkloadKey key, OldAttemptFence fence, RedispatchGate.Verdict verdict) implements FenceCommand {
        /** The bounded wait ran out before the old pods were seen stopped: the workload goes anyway. */
        public boolean gaveUp() {
            return RedispatchGate.WAIT_EXCEEDED.equals(verdict.reason());
        }
    }

    /** An unconfirmed create can no longer start a copy ({@link SupersededCreate}): its hold became one on the attempt's pods. */
    record CreateSuperseded(WorkloadKey key, String cluster, String attemptId, long agentEpoch, String why) implements FenceCommand {}

    /** Nothing holds the workload any more: place it again. */
    record Released(WorkloadKey key) implements FenceCommand {}

    /** What holds the workload changed (its message says so): place it again, which updates its check's message. */
    record HoldChanged(WorkloadKey key) implements FenceCommand {}
}
