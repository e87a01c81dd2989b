package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.StartTimeoutDecision;
import dev.berth.manager.dispatch.StartTimeoutDecision.Began;
import dev.berth.manager.dispatch.StartTimeoutDecision.CalledOff;
import dev.berth.manager.dispatch.StartTimeoutDecision.Command;
import dev.berth.manager.dispatch.StartTimeoutDecision.CopyConfirmed;
import dev.berth.manager.dispatch.StartTimeoutDecision.DeleteCopy;
import dev.berth.manager.dispatch.StartTimeoutDecision.ExpireLease;
import dev.berth.manager.dispatch.StartTimeoutDecision.PlaceAgain;
import dev.berth.manager.dispatch.StartTimeoutDecision.RenewAtOnce;
import dev.berth.manager.dispatch.StartTimeoutDecision.Withdrawn;
import dev.berth.manager.dispatch.StartWithdrawalPolicy;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.StatusJson;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.crd.RemoteWorkloadStatus.PodProblem;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 20 rule 1 at the edge: withdraws the attempts no worker started within the start timeout, as
 * {@link StartTimeoutDecision} decides (the pure part, which also applies the attempts' transitions and keeps the
 * withdrawals under way). It hands the decision the poll and what each listing shows of the copies being withdrawn
 * ({@link #copyReport}: an agent's report as the decision reads it, also used by {@link AttemptListings}), and runs
 * its commands in order: expire a copy's lease (handing back an expiry that was not stored), renew the leases of a
 * copy that started after all, delete the withdrawn copies, record the withdrawal in the dispatch history and the
 * check, retire the attempt and place the workload again. It also answers placement's questions: which clusters a
 * workload keeps away from, and what to say with its next placement. State thread only; the calls answer back on it.
 */
final class StartTimeoutWithdrawals {
    private static final Logger log = LoggerFactory.getLogger(StartTimeoutWithdrawals.class);
    /** The reason the agent gives a pod with PodScheduled=False, as the Kubernetes scheduler writes it. */
    private static final String UNSCHEDULABLE = "Unschedulable";

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final StartTimeoutDecision decision;

    StartTimeoutWithdrawals(DispatchController dispatcher, ManagerState state, Clock clock, DispatchOptions options) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.decision = new StartTimeoutDecision(options.startTimeout(), options.failover().leaseMargin());
    }

    /** Every poll: runs what the decision makes of it; a workload whose withdrawal finished is placed again at once. */
    void poll() {
        boolean placeAgain = false;
        for (Command command : decision.poll(dispatcher.attempts(), clock.instant())) {
            run(command);
            placeAgain |= command instanceof PlaceAgain;
        }
        if (placeAgain) dispatcher.reconcile();
    }

    /**
     * A cluster's listing, for every withdrawal with a copy there: what it shows of each copy (its report, built by
     * {@link #copyReport} when the listing was read), or that it is gone.
     */
    void listed(String cluster, Set<WorkloadKey> seen, Map<WorkloadKey, CopyReport> reports) {
        decision.listed(cluster, seen, reports, dispatcher.attempts(), clock.instant()).forEach(this::run);
        // the caller (a listing) reconciles next, which places the workloads whose withdrawal finished
    }

    /** The workload is gone: its withdrawals and avoided clusters are forgotten. */
    void forget(WorkloadKey key) {
        decision.forget(key);
    }

    /** The clusters a workload keeps away from now, after a withdrawal. */
    Set<String> avoided(WorkloadKey key) {
        return decision.avoided(key, clock.instant());
    }

    /** The workload was placed again: the withdrawal's message, said once with that placement (null when none). */
    String placed(WorkloadKey key) {
        return decision.placed(key);
    }

    /** What to say with the next placement, e.g. "withdrawn from h100 after 5m: ...", or null. */
    String note(WorkloadKey key) {
        return decision.note(key);
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

    private void run(Command command) {
        if (command instanceof Began began) {
            log.atWarn().addKeyValue("workload", began.key()).addKeyValue("cluster", String.join(",", began.clusters()))
                    .addKeyValue("attempt", began.attemptId()).log("withdrawing an attempt no worker started in time: " + began.message());
        } else if (command instanceof ExpireLease expire) {
            expire(expire);
        } else if (command instanceof CopyConfirmed confirmed) {
            log.atInfo().addKeyValue("workload", confirmed.key()).addKeyValue("cluster", confirmed.cluster())
                    .addKeyValue("attempt", confirmed.attemptId()).log("withdrawal confirmed: " + confirmed.how());
        } else if (command instanceof CalledOff off) {
            log.atWarn().addKeyValue("workload", off.key()).addKeyValue("cluster", off.cluster()).addKeyValue("attempt", off.attemptId())
                    .log("withdrawal called off: the agent started the copy before its lease was expired; it stays");
        } else if (command instanceof RenewAtOnce renew) {
            dispatcher.renewals.stampEpochNow(renew.key(), renew.cluster(), renew.attempt());
        } else if (command instanceof DeleteCopy delete) {
            dispatcher.deleteRemote(delete.key(), delete.cluster(), delete.attemptId(), delete.why());
        } else if (command instanceof Withdrawn withdrawn) {
            record(withdrawn);
        } else if (command instanceof PlaceAgain again) {
            dispatcher.lastCopyGone(again.key(), again.attempt());
        }
    }

    /** The drain's fence: a renew with a time one lease and a second ago, so the agent never starts the copy. */
    private void expire(ExpireLease expire) {
        WorkloadKey key = expire.key();
        WorkerClusters clusters = dispatcher.clusters;
        clusters.calls(expire.cluster()).ifPresentOrElse(calls -> clusters.onStateThread(
                calls.renew(key.namespace(), key.name(), StatusJson.timestamp(expire.stamp()), dispatcher.epoch()), done -> {
                    if (done.succeeded()) return;
                    decision.expiryNotStored(expire);
                    log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", expire.cluster()).addKeyValue("attempt", expire.attemptId())
                            .log("withdrawal: lease not expired yet, retried at the next poll: " + done.cause().getMessage());
                }), () -> decision.expiryNotStored(expire));
    }

    /** The withdrawal in the log and, while the workload has a status, in its dispatch history and check message. */
    private void record(Withdrawn withdrawn) {
        WorkloadKey key = withdrawn.key();
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", withdrawn.where()).addKeyValue("attempt", withdrawn.attemptId())
                .log("attempt withdrawn; placing the workload again: " + withdrawn.message());
        if (state.controller.statusOf(key) == null) return;
        DispatchHistory.record(state, key, withdrawn.attemptId(), withdrawn.where(), withdrawn.attemptNumber(),
                StartWithdrawalPolicy.START_TIMEOUT, withdrawn.message(), withdrawn.at());
        AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        if (check != null) state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, withdrawn.message());
    }
}
