package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.ReportDecision;
import dev.berth.manager.dispatch.ReportDecision.Abandon;
import dev.berth.manager.dispatch.ReportDecision.CommitStep;
import dev.berth.manager.dispatch.ReportDecision.DeleteRemote;
import dev.berth.manager.dispatch.ReportDecision.Finish;
import dev.berth.manager.dispatch.ReportDecision.FirstReport;
import dev.berth.manager.dispatch.ReportDecision.FollowProvisioning;
import dev.berth.manager.dispatch.ReportDecision.HandToFailover;
import dev.berth.manager.dispatch.ReportDecision.LeaseExpired;
import dev.berth.manager.dispatch.ReportDecision.MirrorObjectStatus;
import dev.berth.manager.dispatch.ReportDecision.Outcome;
import dev.berth.manager.dispatch.ReportDecision.RecordOutcome;
import dev.berth.manager.dispatch.ReportDecision.Retire;
import dev.berth.manager.dispatch.ReportDecision.SetCheckState;
import dev.berth.manager.dispatch.ReportDecision.SetPodsReady;
import dev.berth.manager.dispatch.ReportDecision.Withdraw;
import dev.berth.manager.dispatch.ReportDecision.WriteDispatch;
import dev.berth.manager.dispatch.ReportDecision.WriteLastReport;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mirrors what a cluster reports of a current attempt onto the workload: builds the decision's view of the report
 * and of the MultiKueue check, lets {@link ReportDecision} decide (the winner, the outcome, failover or abandon, the
 * commit step; it applies the attempt's transitions), and runs its commands in order through the dispatcher's
 * collaborators: status.dispatch and the history, the check, PodsReady, the provisioning checks, withdrawals and
 * deletions, finish, failover, the commit step ({@link CopyCommits}), and the owner's object status. State thread only.
 */
final class RemoteStatusMirror {
    private static final Logger log = LoggerFactory.getLogger(RemoteStatusMirror.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final ReportDecision decision = new ReportDecision();

    RemoteStatusMirror(DispatchController dispatcher, ManagerState state, Clock clock) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
    }

    void mirror(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkloadStatus remote) {
        AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        ReportDecision.Report report = new ReportDecision.Report(DispatchStatusWriter.reported(cluster, attempt.id(), remote),
                remote.getAllPodsReady(), remote.getObjectStatus() != null || remote.getPodStatuses() != null);
        for (ReportDecision.Command command : decision.reported(cluster, attempt,
                check == null ? null : new ReportDecision.Check(check.name(), check.state()), report, clock.instant())) {
            run(key, cluster, attempt, remote, command);
        }
    }

    private void run(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkloadStatus remote, ReportDecision.Command command) {
        if (command instanceof FollowProvisioning) {
            dispatcher.provisioning.reported(key, cluster, remote);
        } else if (command instanceof FirstReport first) {
            dispatcher.listener.firstReport(first.cluster(), first.sinceDispatch());
        } else if (command instanceof Withdraw withdraw) {
            dispatcher.copies.withdraw(key, attempt, withdraw.cluster(), withdraw.deleteWhy(), withdraw.holdWhy());
        } else if (command instanceof WriteDispatch write) {
            DispatchStatusWriter.writeDispatch(state, key, write.status(), write.clusterName());
        } else if (command instanceof SetCheckState set) {
            if (CheckStates.READY.equals(set.state())) {
                log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                        .log("remote attempt admitted");
            }
            state.controller.setAdmissionCheckState(key, set.check(), set.state(), set.message());
        } else if (command instanceof SetPodsReady ready) {
            state.controller.setPodsReady(key, ready.ready());
        } else if (command instanceof WriteLastReport last) {
            Outcome outcome = last.outcome();
            DispatchStatusWriter.update(state, key, parts -> parts.withDispatch(last.status(), last.clusterName())
                    .withOutcome(outcome.attemptId(), outcome.cluster(), outcome.number(), outcome.phase(), outcome.reason(), outcome.at()));
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("remote attempt finished: " + outcome.phase());
        } else if (command instanceof MirrorObjectStatus) {
            DispatchStatusWriter.mirrorObjectStatus(state, key, remote);
        } else if (command instanceof Retire) {
            dispatcher.retire(key, attempt);
        } else if (command instanceof DeleteRemote delete) {
            dispatcher.deleteRemote(key, delete.cluster(), attempt.id(), delete.why());
        } else if (command instanceof Finish finish) {
            state.controller.finish(key, finish.succeeded(), finish.reason(), finish.message());
        } else if (command instanceof RecordOutcome recorded) {
            Outcome outcome = recorded.outcome();
            DispatchHistory.record(state, key, outcome.attemptId(), outcome.cluster(), outcome.number(), outcome.phase(), outcome.reason(),
                    outcome.at());
        } else if (command instanceof LeaseExpired expired) {
            dispatcher.listener.leaseExpired(expired.cluster());
        } else if (command instanceof HandToFailover drained) {
            dispatcher.failover.drained(key, attempt, drained.cluster());
        } else if (command instanceof Abandon abandon) {
            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("remote attempt " + abandon.why() + ": " + remote.getReason());
            dispatcher.abandon(key, attempt, abandon.why());
        } else if (command instanceof CommitStep step) {
            dispatcher.commits.reserved(key, step.cluster(), attempt);
        }
    }
}
