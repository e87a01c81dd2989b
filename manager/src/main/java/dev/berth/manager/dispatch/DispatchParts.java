package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.List;

/**
 * The dispatcher's part of a Workload's status, as one value: Kueue's {@code status.clusterName}, and
 * Berth's {@code status.dispatch}, {@code status.dispatchHistory} and {@code status.dispatchHolds}. The
 * dispatcher changes it as a value (the {@code with...} methods) and the status writer puts it into the
 * Workload next to the admission controller's part, so neither overwrites the other.
 *
 * @param clusterName where the workload runs once a cluster admitted it, or null
 * @param dispatch    the current attempt and what its cluster reported, or null when none
 * @param history     one entry per attempt, oldest first
 * @param holds       the fences holding the workload back from redispatch
 */
public record DispatchParts(String clusterName, DispatchStatus dispatch, List<DispatchHistoryEntry> history, List<DispatchHold> holds) {
    public static final DispatchParts NONE = new DispatchParts(null, null, List.of(), List.of());

    public DispatchParts {
        history = history == null ? List.of() : List.copyOf(history);
        holds = holds == null ? List.of() : List.copyOf(holds);
    }

    /** The current attempt's block and clusterName (null removes either). */
    public DispatchParts withDispatch(DispatchStatus dispatch, String clusterName) {
        return new DispatchParts(clusterName, dispatch, history, holds);
    }

    /** The attempt's outcome recorded in the history (see {@link DispatchHistoryEntry#recorded}). */
    public DispatchParts withOutcome(String attemptId, String cluster, int number, String outcome, String reason, Instant at) {
        return new DispatchParts(clusterName, dispatch, DispatchHistoryEntry.recorded(history, attemptId, cluster, number, outcome, reason, at),
                holds);
    }

    public DispatchParts withHolds(List<DispatchHold> holds) {
        return new DispatchParts(clusterName, dispatch, history, holds);
    }

    /** The number of attempts made, from the history. */
    public int attemptsMade() {
        return DispatchHistoryEntry.attemptsMade(history);
    }
}
