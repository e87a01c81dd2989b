package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a worker cluster's answer to the create of an attempt's copy means: the event "create answered (or not)"
 * in, the attempt's transitions applied, the commands for the edge out. A created copy is confirmed; a copy
 * that failed is dropped from the attempt, held until the lease it carried has run out when the cluster never
 * answered (the create may still land), and a workload left with no copy is placed again: after a backoff
 * that grows with the refusals in a row when the cluster answered (a 4xx: nothing landed, and a worker that
 * refuses every create is not sent new attempts as fast as it answers), at once otherwise. A copy of an attempt
 * that is no longer current is deleted if it was created, and an answer of any kind lifts the fence that held
 * the workload while the create was in flight. Pure; the state thread only.
 */
public final class CreateAnswers {
    /** How the create ended: created, answered with a refusal, or no answer (a timeout, a reset connection). */
    public enum Outcome {
        CREATED, REFUSED, UNANSWERED;

        boolean answered() {
            return this != UNANSWERED;
        }
    }

    /** What the edge does next, in order. */
    public sealed interface Command permits DeleteCopy, LiftCreateFence, HoldUntilLeaseRunsOut, PlaceAgainAfterBackoff, PlaceAgainNow {}

    /** Delete the copy on the cluster. */
    public record DeleteCopy(String cluster, String why) implements Command {}

    /** The create that a fence waited for was answered: lift that fence (the workload may be placed again). */
    public record LiftCreateFence(String cluster) implements Command {}

    /** The create may still land: hold the workload until the lease it carried has surely run out. */
    public record HoldUntilLeaseRunsOut(String cluster, String why) implements Command {}

    /** The attempt's last copy was refused: retire it, clear status.dispatch, place again after this many refusals' backoff. */
    public record PlaceAgainAfterBackoff(int refusalsInARow) implements Command {}

    /** The attempt's last copy is gone without an answer: retire it, clear status.dispatch and place again now. */
    public record PlaceAgainNow() implements Command {}

    /** Per workload, its creates refused in a row since one was acknowledged. */
    private final Map<WorkloadKey, Integer> refusals = new HashMap<>();

    /**
     * The cluster answered the create of {@code attempt}'s copy (or gave up), learned {@code now}; {@code current} says
     * whether the attempt is still the workload's current one. {@code cause} is the failure's message, for the hold.
     */
    public List<Command> answered(WorkloadKey key, DispatchAttempt attempt, boolean current, String cluster, Outcome outcome,
                                  String cause, Instant now) {
        List<Command> commands = new ArrayList<>();
        if (outcome == Outcome.CREATED) {
            attempt.createAnswered(cluster, now);
            refusals.remove(key);
        }
        if (!current) {
            if (outcome == Outcome.CREATED) commands.add(new DeleteCopy(cluster, "abandoned while its create was in flight"));
            if (outcome.answered()) commands.add(new LiftCreateFence(cluster));
            return commands;
        }
        if (outcome == Outcome.CREATED) return commands;
        attempt.dropCluster(cluster);
        if (!outcome.answered()) commands.add(new HoldUntilLeaseRunsOut(cluster, "create unconfirmed (" + cause + ")"));
        if (attempt.clusters().isEmpty()) {
            commands.add(outcome.answered() ? new PlaceAgainAfterBackoff(refusals.merge(key, 1, Integer::sum)) : new PlaceAgainNow());
        }
        return commands;
    }
}
