package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One attempt in a workload's {@code status.dispatchHistory}: which attempt, where it went, and how it
 * ended (or its latest outcome). The history keeps the latest {@link #KEPT} attempts.
 *
 * @param attemptId      the attempt
 * @param attempt        its number: 1 for the workload's first attempt, then one more per redispatch
 * @param cluster        where it was dispatched (several clusters joined by ", " for a multi-cluster strategy)
 * @param dispatchTime   when it was dispatched
 * @param outcome        Dispatched, or the remote phase that ended it
 * @param reason         why, or null
 * @param lastUpdateTime when the outcome was recorded
 */
public record DispatchHistoryEntry(String attemptId, int attempt, String cluster, Instant dispatchTime, String outcome, String reason,
                                   Instant lastUpdateTime) {
    /** How many attempts the history keeps; older ones are dropped first. */
    public static final int KEPT = 20;

    /** The highest attempt number in the history: the number of attempts made (0 for none). */
    public static int attemptsMade(List<DispatchHistoryEntry> history) {
        return Math.max(0, history.stream().mapToInt(DispatchHistoryEntry::attempt).max().orElse(0));
    }

    /**
     * The history with the attempt's outcome recorded: a new entry for a new attempt, else the existing
     * entry's outcome, reason and time updated. The oldest entries beyond {@link #KEPT} are dropped.
     */
    public static List<DispatchHistoryEntry> recorded(List<DispatchHistoryEntry> history, String attemptId, String cluster, int number,
                                                      String outcome, String reason, Instant at) {
        List<DispatchHistoryEntry> next = new ArrayList<>(history);
        int found = -1;
        for (int i = 0; i < next.size(); i++) {
            if (attemptId.equals(next.get(i).attemptId())) found = i;
        }
        if (found < 0) {
            next.add(new DispatchHistoryEntry(attemptId, number, cluster, at, outcome, reason, at));
        } else {
            DispatchHistoryEntry old = next.get(found);
            next.set(found, new DispatchHistoryEntry(old.attemptId(), old.attempt(), old.cluster(), old.dispatchTime(), outcome, reason, at));
        }
        return next.size() <= KEPT ? next : List.copyOf(next.subList(next.size() - KEPT, next.size()));
    }
}
