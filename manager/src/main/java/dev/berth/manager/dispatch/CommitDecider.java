package dev.berth.manager.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The commit step of two-phase dispatch (AllAtOnce, Incremental, External): the copies of one attempt
 * are sent as reservations; the agents report which ones they could admit (Reserved) without starting
 * anything. This decides which reserved copy is committed, when an unconfirmed commit is sent again,
 * and which copies are withdrawn. Exactly one copy is ever committed per attempt: another is chosen
 * only after the executor dropped a refused winner ({@link Copies#committedTo()} back to null).
 * The losers are withdrawn only once the winner's commit is confirmed, so a commit the winner refuses
 * (its copy gone meanwhile) can fall back to the next reservation. Pure: the time is passed in.
 */
public final class CommitDecider {
    /** How long an unconfirmed commit (no answer yet, or an answer lost) waits before it is sent again. */
    public static final Duration DEFAULT_COMMIT_RETRY = Duration.ofSeconds(10);

    private final Duration commitRetry;

    public CommitDecider(Duration commitRetry) {
        this.commitRetry = commitRetry;
    }

    /**
     * What the manager knows of an attempt's copies.
     *
     * @param clusters        the clusters holding a copy, in dispatch order (config order)
     * @param reservedSince   per cluster, when it was first seen Reserved
     * @param committedTo     the cluster chosen as the winner, or null before the choice
     * @param commitSentAt    when the commit was last sent to it, or null when not sent yet
     * @param commitConfirmed whether the winner acknowledged the commit (or listed its copy committed)
     */
    public record Copies(List<String> clusters, Map<String, Instant> reservedSince, String committedTo, Instant commitSentAt,
                         boolean commitConfirmed) {
        public Copies {
            clusters = List.copyOf(clusters);
            reservedSince = Map.copyOf(reservedSince);
        }
    }

    /** @param commit the cluster to send the commit to now, or null; @param withdraw the copies to delete now */
    public record Decision(String commit, List<String> withdraw) {
        public static final Decision NONE = new Decision(null, List.of());

        public Decision {
            withdraw = List.copyOf(withdraw);
        }
    }

    /** What to do now with the copies. */
    public Decision decide(Copies copies, Instant now) {
        String winner = copies.committedTo();
        if (winner != null && copies.commitConfirmed()) {
            return new Decision(null, copies.clusters().stream().filter(c -> !c.equals(winner)).toList());
        }
        if (winner != null) {
            boolean due = copies.commitSentAt() == null || !now.isBefore(copies.commitSentAt().plus(commitRetry));
            return due ? new Decision(winner, List.of()) : Decision.NONE;
        }
        return copies.clusters().stream()
                .filter(copies.reservedSince()::containsKey)
                .min(Comparator.comparing((String c) -> copies.reservedSince().get(c)).thenComparing(copies.clusters()::indexOf))
                .map(first -> new Decision(first, List.of()))
                .orElse(Decision.NONE);
    }
}
