package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which dispatch leases to renew, and what a renewal's answer means: the renewal tick (or the poll's retry of
 * failed ones) in, the attempts' transitions applied and the renewals to send out; a renewal's answer in, the
 * transition applied. A copy is renewed only while its attempt is neither drained nor withdrawn (their leases
 * were expired on purpose), no renewal of it is in flight, its cluster may still be renewed on (a lost cluster
 * only while a blip could still be passing, {@link LostClusterPolicy#keepRenewing}) and this manager can call
 * that cluster. A new leader's first listing stamps its epoch at once on a copy at an older one, under the same
 * exceptions but whether a renewal is in flight. Pure; the state thread only.
 */
public final class LeaseRenewalDecision {
    /** A renewal to send: the copy of {@code key} on {@code cluster}, stamped {@code stamp}. */
    public record Renewal(WorkloadKey key, String cluster, DispatchAttempt attempt, Instant stamp) {}

    /** How a renewal ended: renewed, the copy no longer there (404: not retried), or failed (retried at the next poll). */
    public enum Answer { RENEWED, NO_COPY, FAILED }

    private final BiPredicate<String, DispatchAttempt> mayRenewOn;
    private final Predicate<String> callable;

    /**
     * @param mayRenewOn whether the copy on that cluster may still be renewed (the lost-cluster rule)
     * @param callable   whether this manager has a client for the cluster now
     */
    public LeaseRenewalDecision(BiPredicate<String, DispatchAttempt> mayRenewOn, Predicate<String> callable) {
        this.mayRenewOn = mayRenewOn;
        this.callable = callable;
    }

    /** The renewals due now on the clusters {@code where} picks per attempt, all stamped {@code stamp}; each marked in flight. */
    public List<Renewal> due(CurrentAttempts attempts, Function<DispatchAttempt, Collection<String>> where, Instant stamp) {
        List<Renewal> renewals = new ArrayList<>();
        attempts.forEach((key, attempt) -> {
            for (String cluster : List.copyOf(where.apply(attempt))) {
                if (attempt.draining() || attempt.withdrawing() || attempt.renewing(cluster) || !attempt.clusters().contains(cluster)) continue;
                if (!mayRenewOn.test(cluster, attempt) || !callable.test(cluster)) continue;
                attempt.renewalStarted(cluster, stamp);
                renewals.add(new Renewal(key, cluster, attempt, stamp));
            }
        });
        return renewals;
    }

    /** The renewal of the copy on the cluster ended so. */
    public void answered(DispatchAttempt attempt, String cluster, Answer answer) {
        switch (answer) {
            case RENEWED -> attempt.renewalSucceeded(cluster);
            case NO_COPY -> attempt.renewalFoundNoCopy(cluster);
            case FAILED -> attempt.renewalFailed(cluster);
        }
    }

    /** A copy listed at an older epoch: the renewal that stamps this manager's epoch on it now, if it may be renewed. */
    public Optional<Renewal> stampEpoch(WorkloadKey key, String cluster, DispatchAttempt attempt, Instant stamp) {
        if (attempt.draining() || attempt.withdrawing() || !mayRenewOn.test(cluster, attempt)) return Optional.empty();
        attempt.stamped(cluster, stamp);
        return Optional.of(new Renewal(key, cluster, attempt, stamp));
    }
}
