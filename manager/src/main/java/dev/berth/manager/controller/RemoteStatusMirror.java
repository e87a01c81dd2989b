package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a cluster reports of a current attempt, mirrored onto the workload: the first cluster to admit a
 * copy wins (the others are withdrawn) and the MultiKueue check turns Ready; a finished copy finishes the
 * workload; a stopped or rejected one is abandoned and the check turns Retry. status.dispatch, the
 * dispatch history and the owner's object status follow.
 */
final class RemoteStatusMirror {
    private static final Logger log = LoggerFactory.getLogger(RemoteStatusMirror.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;

    RemoteStatusMirror(DispatchController dispatcher, ManagerState state, Clock clock) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
    }

    void mirror(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkloadStatus remote) {
        AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        if (check == null) return;
        // two-phase: once a copy is chosen, the others are being withdrawn and their reports are not the workload's
        if (attempt.committedTo() != null && !cluster.equals(attempt.committedTo())) return;
        String phase = remote.getPhase();
        // the provisioning check first: a copy admitted on provisioned (or already free) capacity has every check Ready together
        dispatcher.provisioning.reported(key, cluster, remote);
        DispatchStatus reported = DispatchStatusWriter.reported(cluster, attempt.id(), remote);
        switch (phase) {
            case RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.RUNNING -> {
                admitted(key, cluster, attempt, check, reported);
                // waitForPodsReady: the worker's readiness becomes the Workload's PodsReady (an older agent reports none)
                if (remote.getAllPodsReady() != null) state.controller.setPodsReady(key, remote.getAllPodsReady());
            }
            case RemoteWorkloadPhase.SUCCEEDED, RemoteWorkloadPhase.FAILED -> finished(key, cluster, attempt, remote, reported);
            case RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REJECTED -> {
                if (!stopped(key, cluster, attempt, check, remote)) return;
            }
            case RemoteWorkloadPhase.RESERVED -> {
                DispatchStatusWriter.writeDispatch(state, key, reported, attempt.winner());
                dispatcher.commits.reserved(key, cluster, attempt);
            }
            default -> DispatchStatusWriter.writeDispatch(state, key, reported, attempt.winner());
        }
        if ((remote.getObjectStatus() != null || remote.getPodStatuses() != null) && !RemoteWorkloadPhase.isFinal(phase)) {
            DispatchStatusWriter.mirrorObjectStatus(state, key, remote);
        }
    }

    private void admitted(WorkloadKey key, String cluster, DispatchAttempt attempt, AdmissionCheckState check, DispatchStatus reported) {
        if (attempt.winner() == null) {
            attempt.admittedOn(cluster);
            if (attempt.dispatchedAt() != null) dispatcher.listener.firstReport(cluster, Duration.between(attempt.dispatchedAt(), clock.instant()));
            for (String other : attempt.clustersBut(cluster)) {
                // should the winner's copy fail, a loser's create still on its way must not run next to the next attempt
                dispatcher.copies.withdraw(key, attempt, other, "another cluster admitted first", "another cluster admitted first");
            }
            attempt.keepOnlyWinner();
        }
        DispatchStatusWriter.writeDispatch(state, key, reported, cluster);
        if (!CheckStates.READY.equals(check.state())) {
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("remote attempt admitted");
            state.controller.setAdmissionCheckState(key, check.name(), CheckStates.READY,
                    "admitted in cluster " + cluster + " (attempt " + attempt.id() + ")");
        }
    }

    private void finished(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkloadStatus remote, DispatchStatus reported) {
        String phase = remote.getPhase();
        boolean succeeded = RemoteWorkloadPhase.SUCCEEDED.equals(phase);
        // the last report and the attempt's outcome in one status write
        DispatchStatusWriter.update(state, key, parts -> parts.withDispatch(reported, cluster)
                .withOutcome(attempt.id(), cluster, attempt.number(), phase, remote.getReason(), clock.instant()));
        DispatchStatusWriter.mirrorObjectStatus(state, key, remote);
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("remote attempt finished: " + phase);
        dispatcher.retire(key, attempt);
        dispatcher.deleteRemote(key, cluster, attempt.id(), "finished");
        state.controller.finish(key, succeeded, succeeded ? Conditions.Reasons.SUCCEEDED : Conditions.Reasons.FAILED,
                Objects.requireNonNullElse(remote.getMessage(), "finished in cluster " + cluster));
    }

    /** Stopped or rejected: a drained copy is handed to failover (false), any other is abandoned and the check turns Retry. */
    private boolean stopped(WorkloadKey key, String cluster, DispatchAttempt attempt, AdmissionCheckState check, RemoteWorkloadStatus remote) {
        String phase = remote.getPhase();
        DispatchHistory.record(state, key, attempt.id(), cluster, attempt.number(), phase, remote.getReason(), clock.instant());
        if (RemoteWorkloadPhase.REASON_LEASE_EXPIRED.equals(remote.getReason()) && !attempt.draining()) dispatcher.listener.leaseExpired(cluster);
        if (attempt.draining()) {
            dispatcher.failover.drained(key, attempt, cluster);
            return false;
        }
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("remote attempt " + phase + ": " + remote.getReason());
        dispatcher.abandon(key, attempt, phase);
        state.controller.setAdmissionCheckState(key, check.name(), CheckStates.RETRY,
                "attempt " + attempt.id() + " in cluster " + cluster + " " + phase + ": " + remote.getReason());
        return true;
    }
}
