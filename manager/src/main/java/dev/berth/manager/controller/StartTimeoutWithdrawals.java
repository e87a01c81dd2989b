package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.StartWithdrawalPolicy;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.Verdict;
import dev.berth.manager.dispatch.WithdrawnClusters;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.crd.RemoteWorkloadStatus.PodProblem;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 20 rule 1, at the edge: an attempt that no worker started within the start timeout is withdrawn
 * under the drain's fencing, then placed elsewhere. Never two copies alive:
 * <ol>
 *   <li>the copy's lease is expired on purpose (a renew with a past time, as a drain does), and renewals stop,
 *       so from then on its agent refuses to start it; not while a renewal is in flight, which could land
 *       after the expiry and undo it;</li>
 *   <li>the withdrawal is confirmed per copy when its agent reports it Stopped (or Rejected), when the
 *       cluster's listing no longer shows it, or when its last real lease stamp plus lease plus margin has
 *       run out (an agent that never saw the expiry refuses it by then all the same);</li>
 *   <li>if instead the agent reports the copy Admitted or Running (it started it before the expiry reached
 *       it), the withdrawal is called off, the lease renewed at once, and the copy stays;</li>
 *   <li>once every copy is confirmed, each is deleted, the attempt retired, the dispatch history records
 *       {@code StartTimeout}, and the workload, which keeps its quota, is placed again away from those clusters
 *       for a while ({@link WithdrawnClusters}).</li>
 * </ol>
 * Which attempts are due, and what a report means, is decided by {@link StartWithdrawalPolicy}. State thread only.
 */
final class StartTimeoutWithdrawals {
    private static final Logger log = LoggerFactory.getLogger(StartTimeoutWithdrawals.class);
    /** The reason the agent gives a pod with PodScheduled=False, as the Kubernetes scheduler writes it. */
    private static final String UNSCHEDULABLE = "Unschedulable";

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final DispatchOptions options;
    private final StartWithdrawalPolicy policy;
    final WithdrawnClusters<WorkloadKey> withdrawn = new WithdrawnClusters<>();
    /** Withdrawals under way, per workload. */
    private final Map<WorkloadKey, Withdrawal> underWay = new LinkedHashMap<>();

    /** One withdrawal: the attempt, why, when each copy's lease surely ran out, and which copies are not confirmed yet. */
    private static final class Withdrawal {
        final DispatchAttempt attempt;
        final String message;
        final Map<String, Instant> leaseGoneAt = new HashMap<>();
        final Map<String, Boolean> expired = new HashMap<>();

        Withdrawal(DispatchAttempt attempt, String message) {
            this.attempt = attempt;
            this.message = message;
        }
    }

    StartTimeoutWithdrawals(DispatchController dispatcher, ManagerState state, Clock clock, DispatchOptions options) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.options = options;
        this.policy = new StartWithdrawalPolicy(options.startTimeout());
    }

    /** Every poll: starts the withdrawals that are due, expires leases not expired yet, and confirms copies whose lease ran out. */
    void poll() {
        WorkerClusters clusters = dispatcher.clusters;
        if (!policy.options().enabled()) return;
        Instant now = clock.instant();
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : new ArrayList<>(dispatcher.attempts().entrySet())) {
            DispatchAttempt attempt = entry.getValue();
            if (attempt.renewalInFlight()) continue;
            policy.due(attempt.starting(), now).ifPresent(message -> begin(entry.getKey(), attempt, message));
        }
        dropStale();
        boolean finished = false;
        for (Map.Entry<WorkloadKey, Withdrawal> entry : new ArrayList<>(underWay.entrySet())) {
            Withdrawal withdrawal = entry.getValue();
            for (String cluster : List.copyOf(withdrawal.leaseGoneAt.keySet())) {
                if (StartWithdrawalPolicy.leaseRanOut(withdrawal.leaseGoneAt.get(cluster), now)) {
                    confirmed(withdrawal, cluster, "its lease has run out");
                } else if (!withdrawal.expired.getOrDefault(cluster, false)) {
                    expire(entry.getKey(), withdrawal, cluster, clusters);
                }
            }
            finished |= finishIfConfirmed(entry.getKey(), withdrawal);
        }
        if (finished) dispatcher.reconcile();
    }

    /** A withdrawal whose attempt is no longer current (the workload finished, was deleted or evicted) has nothing left to do. */
    private void dropStale() {
        underWay.entrySet().removeIf(e -> dispatcher.attempts().get(e.getKey()) != e.getValue().attempt);
    }

    /** The workload is gone: its withdrawals and avoided clusters are forgotten. */
    void forget(WorkloadKey key) {
        underWay.remove(key);
        withdrawn.forget(key);
    }

    /** What an agent's report says for the start timeout; an unschedulable copy's reason is its scheduler's message. */
    static CopyReport copyReport(String cluster, RemoteWorkloadStatus report) {
        if (report == null) return new CopyReport(cluster, null, null);
        PodProblem unschedulable = unschedulable(report);
        String reason = unschedulable == null ? report.getReason()
                : "pod " + unschedulable.getPod() + " unschedulable: " + unschedulable.getMessage();
        return new CopyReport(cluster, report.getPhase(), reason, unschedulable != null, ProvisioningReports.live(report));
    }

    /** The first pod the cluster's scheduler found no node for, when none of the copy's pods has started; else null. */
    private static PodProblem unschedulable(RemoteWorkloadStatus report) {
        if (report.getStartTime() != null || report.getPodsRunning() > 0 || report.getPodProblems() == null) return null;
        return report.getPodProblems().stream().filter(p -> UNSCHEDULABLE.equals(p.getReason())).findFirst().orElse(null);
    }

    private void begin(WorkloadKey key, DispatchAttempt attempt, String message) {
        attempt.withdrawForStartTimeout();
        Withdrawal withdrawal = new Withdrawal(attempt, message);
        Instant now = clock.instant();
        for (String cluster : attempt.clusters()) {
            withdrawal.leaseGoneAt.put(cluster, attempt.leaseGoneAt(cluster, options.failover().leaseMargin(), now));
        }
        underWay.put(key, withdrawal);
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", String.join(",", attempt.clusters()))
                .addKeyValue("attempt", attempt.id()).log("withdrawing an attempt no worker started in time: " + message);
        for (String cluster : attempt.clusters()) expire(key, withdrawal, cluster, dispatcher.clusters);
    }

    /** The drain's fence: a renew with a time one lease and a second ago, so the agent never starts the copy. */
    private void expire(WorkloadKey key, Withdrawal withdrawal, String cluster, WorkerClusters clusters) {
        DispatchAttempt attempt = withdrawal.attempt;
        Instant past = attempt.expiredStamp(clock.instant());
        withdrawal.expired.put(cluster, true);
        clusters.calls(cluster).ifPresentOrElse(calls -> clusters.onStateThread(
                calls.renew(key.namespace(), key.name(), StatusJson.timestamp(past), dispatcher.epoch()), done -> {
                    if (done.succeeded()) return;
                    withdrawal.expired.put(cluster, false);
                    log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                            .log("withdrawal: lease not expired yet, retried at the next poll: " + done.cause().getMessage());
                }), () -> withdrawal.expired.put(cluster, false));
    }

    /** A cluster's listing, for every withdrawal with a copy there: what it shows of each copy, or that it is gone. */
    void listed(String cluster, Set<WorkloadKey> seen, Map<WorkloadKey, RemoteWorkloadStatus> statuses) {
        dropStale();
        for (Map.Entry<WorkloadKey, Withdrawal> entry : new ArrayList<>(underWay.entrySet())) {
            WorkloadKey key = entry.getKey();
            Withdrawal withdrawal = entry.getValue();
            if (!withdrawal.leaseGoneAt.containsKey(cluster)) continue;
            RemoteWorkloadStatus status = statuses.get(key);
            CopyReport copy = copyReport(cluster, status);
            Verdict verdict = policy.reported(seen.contains(key), copy.phase(), copy.unschedulable());
            if (verdict == Verdict.CONFIRMED) {
                confirmed(withdrawal, cluster, seen.contains(key) ? "its agent reports it " + status.getPhase() : "gone from the listing");
            } else if (verdict == Verdict.CANCEL) {
                cancel(key, withdrawal, cluster);
                continue;
            }
            finishIfConfirmed(key, withdrawal);
        }
        // the caller (a listing) reconciles next, which places the workloads whose withdrawal finished
    }

    private void confirmed(Withdrawal withdrawal, String cluster, String how) {
        if (withdrawal.leaseGoneAt.remove(cluster) == null) return;
        log.atInfo().addKeyValue("cluster", cluster).addKeyValue("attempt", withdrawal.attempt.id())
                .log("withdrawal confirmed: " + how);
    }

    /** The agent started the copy before the expired lease reached it: it stays, and its lease is renewed at once. */
    private void cancel(WorkloadKey key, Withdrawal withdrawal, String cluster) {
        underWay.remove(key);
        DispatchAttempt attempt = withdrawal.attempt;
        attempt.withdrawalCalledOff();
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("withdrawal called off: the agent started the copy before its lease was expired; it stays");
        for (String copy : attempt.clusters()) dispatcher.renewals.stampEpochNow(key, copy, attempt);
    }

    /** Every copy confirmed: delete them, record the withdrawal, and place the workload again. */
    private boolean finishIfConfirmed(WorkloadKey key, Withdrawal withdrawal) {
        if (!withdrawal.leaseGoneAt.isEmpty()) return false;
        underWay.remove(key);
        DispatchAttempt attempt = withdrawal.attempt;
        Instant now = clock.instant();
        String where = String.join(", ", attempt.clusters());
        for (String cluster : attempt.clusters()) {
            dispatcher.deleteRemote(key, cluster, attempt.id(), "withdrawn: not started within the start timeout");
            withdrawn.withdrawn(key, cluster, policy.avoidUntil(now), withdrawal.message);
        }
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", where).addKeyValue("attempt", attempt.id())
                .log("attempt withdrawn; placing the workload again: " + withdrawal.message);
        if (state.controller.statusOf(key) != null) {
            DispatchHistory.record(state, key, attempt.id(), where, attempt.number(), StartWithdrawalPolicy.START_TIMEOUT, withdrawal.message, now);
            AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
            if (check != null) state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, withdrawal.message);
        }
        dispatcher.lastCopyGone(key, attempt);
        return true;
    }

    /** The clusters a workload keeps away from now, after a withdrawal. */
    Set<String> avoided(WorkloadKey key) {
        return withdrawn.avoided(key, clock.instant());
    }

    /** The workload was placed again: the withdrawal's message, said once with that placement (null when none). */
    String placed(WorkloadKey key) {
        return withdrawn.told(key);
    }

    /** What to say with the next placement, e.g. "withdrawn from h100 after 5m: ...", or null. */
    String note(WorkloadKey key) {
        return withdrawn.note(key);
    }
}
