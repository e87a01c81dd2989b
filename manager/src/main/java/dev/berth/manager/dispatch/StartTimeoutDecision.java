package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.Verdict;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 20 rule 1, decided: an attempt that no worker started within the start timeout is withdrawn under the
 * drain's fencing, then placed elsewhere. Never two copies alive:
 * <ol>
 *   <li>the copy's lease is expired on purpose (a renew with a past time, as a drain does) and renewals stop
 *       ({@link DispatchAttempt#withdrawForStartTimeout}), so from then on its agent refuses to start it; not while
 *       a renewal is in flight, which could land after the expiry and undo it. An expiry that did not reach the
 *       cluster is sent again at the next poll;</li>
 *   <li>the withdrawal is confirmed per copy when its agent reports it Stopped (or Rejected), when the cluster's
 *       listing no longer shows it, or when its last real lease stamp plus lease plus margin has run out (an agent
 *       that never saw the expiry refuses it by then all the same);</li>
 *   <li>if instead the agent reports the copy Admitted or Running (it started it before the expiry reached it),
 *       the withdrawal is called off ({@link DispatchAttempt#withdrawalCalledOff}), every copy's lease renewed at
 *       once, and the copy stays;</li>
 *   <li>once every copy is confirmed, each is deleted, the withdrawal recorded ({@code StartTimeout} in the
 *       dispatch history, the check Pending with its message), the attempt retired and the workload, which keeps
 *       its quota, placed again away from those clusters for a while ({@link WithdrawnClusters}).</li>
 * </ol>
 * Events in (the poll, a cluster's listing, an expiry that failed, a workload gone), the attempts' transitions
 * applied, the edge's {@link Command commands} out in the order they are to run. It owns the withdrawals under
 * way and the clusters each workload keeps away from. Which attempts are due, and what a report means, is
 * {@link StartWithdrawalPolicy}'s. Pure: the caller passes the time; the state thread only.
 */
public final class StartTimeoutDecision {

    /** What the edge does next, in order. */
    public sealed interface Command permits Began, ExpireLease, CopyConfirmed, CalledOff, RenewAtOnce, DeleteCopy, Withdrawn, PlaceAgain {}

    /** A withdrawal began (an event to log): no copy of the attempt, on {@code clusters}, started in time. */
    public record Began(WorkloadKey key, String attemptId, List<String> clusters, String message) implements Command {}

    /**
     * The drain's fence: renew the copy's lease with {@code stamp}, one lease and a second ago, so its agent never
     * starts it. Should it not be stored, hand it back ({@link #expiryNotStored}): it is sent again at the next poll.
     */
    public record ExpireLease(WorkloadKey key, String cluster, String attemptId, Instant stamp, long withdrawal) implements Command {}

    /** The copy on the cluster can no longer start (an event to log); {@code how} says what showed it. */
    public record CopyConfirmed(WorkloadKey key, String cluster, String attemptId, String how) implements Command {}

    /** The agent on the cluster started the copy before the expiry reached it (an event to log): the withdrawal is off, the copy stays. */
    public record CalledOff(WorkloadKey key, String cluster, String attemptId) implements Command {}

    /** After a call-off: renew the lease of the attempt's copy on the cluster at once, over the expired stamp. */
    public record RenewAtOnce(WorkloadKey key, String cluster, DispatchAttempt attempt) implements Command {}

    /** Every copy confirmed: delete the copy on the cluster. */
    public record DeleteCopy(WorkloadKey key, String cluster, String attemptId, String why) implements Command {}

    /**
     * The attempt on {@code where} was withdrawn at {@code at}: log it and, while the workload has a status, record
     * it in the dispatch history (outcome {@link StartWithdrawalPolicy#START_TIMEOUT}) and set its check Pending
     * with {@code message}.
     */
    public record Withdrawn(WorkloadKey key, String attemptId, int attemptNumber, String where, String message, Instant at) implements Command {}

    /** Retire the attempt, clear status.dispatch and place the workload again (it keeps its quota). */
    public record PlaceAgain(WorkloadKey key, DispatchAttempt attempt) implements Command {}

    /** One withdrawal: the attempt, why, and per copy not confirmed yet when its lease surely runs out and whether its expiry is out. */
    private static final class Withdrawal {
        final long serial;
        final DispatchAttempt attempt;
        final String message;
        final Map<String, Instant> leaseGoneAt = new HashMap<>();
        /** Copies whose expiry was sent and did not fail (yet). */
        final Set<String> expirySent = new HashSet<>();

        Withdrawal(long serial, DispatchAttempt attempt, String message) {
            this.serial = serial;
            this.attempt = attempt;
            this.message = message;
        }
    }

    private final StartWithdrawalPolicy policy;
    private final Duration leaseMargin;
    private final Map<WorkloadKey, Withdrawal> underWay = new LinkedHashMap<>();
    private final WithdrawnClusters<WorkloadKey> withdrawn = new WithdrawnClusters<>();
    private long serials;

    /**
     * @param options     the start timeout (zero: nothing is ever withdrawn) and how long a workload keeps away afterwards
     * @param leaseMargin what is added to a copy's last stamp plus lease before it has surely run out
     */
    public StartTimeoutDecision(StartTimeoutOptions options, Duration leaseMargin) {
        this.policy = new StartWithdrawalPolicy(options);
        this.leaseMargin = leaseMargin;
    }

    /**
     * The poll: begins the withdrawals due now among the current {@code attempts}, confirms the copies whose lease
     * has run out, sends again the expiries that failed, and finishes the withdrawals whose copies are all confirmed.
     */
    public List<Command> poll(CurrentAttempts attempts, Instant now) {
        List<Command> commands = new ArrayList<>();
        if (!policy.options().enabled()) return commands;
        attempts.forEach((key, attempt) -> {
            if (attempt.renewalInFlight()) return;
            policy.due(attempt.starting(), now).ifPresent(message -> begin(key, attempt, message, now, commands));
        });
        dropStale(attempts);
        for (Map.Entry<WorkloadKey, Withdrawal> entry : new ArrayList<>(underWay.entrySet())) {
            WorkloadKey key = entry.getKey();
            Withdrawal withdrawal = entry.getValue();
            for (String cluster : List.copyOf(withdrawal.leaseGoneAt.keySet())) {
                if (StartWithdrawalPolicy.leaseRanOut(withdrawal.leaseGoneAt.get(cluster), now)) {
                    confirmed(key, withdrawal, cluster, "its lease has run out", commands);
                } else if (!withdrawal.expirySent.contains(cluster)) {
                    expire(key, withdrawal, cluster, now, commands);
                }
            }
            finishIfConfirmed(key, withdrawal, now, commands);
        }
        return commands;
    }

    /**
     * A listing of {@code cluster}: {@code seen} the workloads whose current attempt it shows, {@code reports} what
     * their agents report of those copies (a copy without a report is absent). Confirms, calls off or leaves waiting
     * each withdrawal with a copy there; finishes those whose copies are all confirmed.
     */
    public List<Command> listed(String cluster, Set<WorkloadKey> seen, Map<WorkloadKey, CopyReport> reports,
            CurrentAttempts attempts, Instant now) {
        List<Command> commands = new ArrayList<>();
        dropStale(attempts);
        for (Map.Entry<WorkloadKey, Withdrawal> entry : new ArrayList<>(underWay.entrySet())) {
            WorkloadKey key = entry.getKey();
            Withdrawal withdrawal = entry.getValue();
            if (!withdrawal.leaseGoneAt.containsKey(cluster)) continue;
            boolean listed = seen.contains(key);
            CopyReport copy = reports.getOrDefault(key, new CopyReport(cluster, null, null));
            Verdict verdict = policy.reported(listed, copy.phase(), copy.unschedulable());
            if (verdict == Verdict.CONFIRMED) {
                confirmed(key, withdrawal, cluster, listed ? "its agent reports it " + copy.phase() : "gone from the listing", commands);
            } else if (verdict == Verdict.CANCEL) {
                callOff(key, withdrawal, cluster, commands);
                continue;
            }
            finishIfConfirmed(key, withdrawal, now, commands);
        }
        return commands;
    }

    /** The expiry {@code sent} was not stored (the call failed, or no client): it is sent again at the next poll. */
    public void expiryNotStored(ExpireLease sent) {
        Withdrawal withdrawal = underWay.get(sent.key());
        if (withdrawal != null && withdrawal.serial == sent.withdrawal()) withdrawal.expirySent.remove(sent.cluster());
    }

    /** The workload is gone: its withdrawal and the clusters it kept away from are forgotten. */
    public void forget(WorkloadKey key) {
        underWay.remove(key);
        withdrawn.forget(key);
    }

    /** The clusters the workload keeps away from at {@code now}, after a withdrawal. */
    public Set<String> avoided(WorkloadKey key, Instant now) {
        return withdrawn.avoided(key, now);
    }

    /** The workload was placed again: the latest withdrawal's message, handed out once with that placement (null when none). */
    public String placed(WorkloadKey key) {
        return withdrawn.told(key);
    }

    /** What to say with the next placement, e.g. "withdrawn from h100 after 5m: ...", or null. */
    public String note(WorkloadKey key) {
        return withdrawn.note(key);
    }

    /** A withdrawal whose attempt is no longer current (the workload finished, was deleted or evicted) has nothing left to do. */
    private void dropStale(CurrentAttempts attempts) {
        underWay.entrySet().removeIf(e -> attempts.get(e.getKey()) != e.getValue().attempt);
    }

    private void begin(WorkloadKey key, DispatchAttempt attempt, String message, Instant now, List<Command> commands) {
        attempt.withdrawForStartTimeout();
        Withdrawal withdrawal = new Withdrawal(++serials, attempt, message);
        for (String cluster : attempt.clusters()) withdrawal.leaseGoneAt.put(cluster, attempt.leaseGoneAt(cluster, leaseMargin, now));
        underWay.put(key, withdrawal);
        commands.add(new Began(key, attempt.id(), List.copyOf(attempt.clusters()), message));
        for (String cluster : attempt.clusters()) expire(key, withdrawal, cluster, now, commands);
    }

    private static void expire(WorkloadKey key, Withdrawal withdrawal, String cluster, Instant now, List<Command> commands) {
        withdrawal.expirySent.add(cluster);
        commands.add(new ExpireLease(key, cluster, withdrawal.attempt.id(), withdrawal.attempt.expiredStamp(now), withdrawal.serial));
    }

    private static void confirmed(WorkloadKey key, Withdrawal withdrawal, String cluster, String how, List<Command> commands) {
        if (withdrawal.leaseGoneAt.remove(cluster) == null) return;
        commands.add(new CopyConfirmed(key, cluster, withdrawal.attempt.id(), how));
    }

    /** The agent started the copy before the expired lease reached it: it stays, and every copy's lease is renewed at once. */
    private void callOff(WorkloadKey key, Withdrawal withdrawal, String cluster, List<Command> commands) {
        underWay.remove(key);
        DispatchAttempt attempt = withdrawal.attempt;
        attempt.withdrawalCalledOff();
        commands.add(new CalledOff(key, cluster, attempt.id()));
        for (String copy : attempt.clusters()) commands.add(new RenewAtOnce(key, copy, attempt));
    }

    /** Every copy confirmed: delete them, keep away from their clusters, record the withdrawal, and place the workload again. */
    private void finishIfConfirmed(WorkloadKey key, Withdrawal withdrawal, Instant now, List<Command> commands) {
        if (!withdrawal.leaseGoneAt.isEmpty()) return;
        underWay.remove(key);
        DispatchAttempt attempt = withdrawal.attempt;
        for (String cluster : attempt.clusters()) {
            commands.add(new DeleteCopy(key, cluster, attempt.id(), "withdrawn: not started within the start timeout"));
            withdrawn.withdrawn(key, cluster, policy.avoidUntil(now), withdrawal.message);
        }
        commands.add(new Withdrawn(key, attempt.id(), attempt.number(), String.join(", ", attempt.clusters()), withdrawal.message, now));
        commands.add(new PlaceAgain(key, attempt));
    }
}
