package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.ListedCopy;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.ListingCommand;
import dev.berth.manager.dispatch.ListingCommand.Adopted;
import dev.berth.manager.dispatch.ListingCommand.DeleteStale;
import dev.berth.manager.dispatch.ListingCommand.DropCluster;
import dev.berth.manager.dispatch.ListingCommand.ListedCommitted;
import dev.berth.manager.dispatch.ListingCommand.ListedWithdrawals;
import dev.berth.manager.dispatch.ListingCommand.Mirror;
import dev.berth.manager.dispatch.ListingCommand.StampEpoch;
import dev.berth.manager.dispatch.ListingCommand.SupersedeFences;
import dev.berth.manager.dispatch.ListingDecision;
import dev.berth.manager.dispatch.ListingFacts;
import dev.berth.manager.dispatch.MirroredReports;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a cluster's listing of the attempts it holds: builds the decision's view of each RemoteWorkload
 * ({@link ListedCopy}), lets {@link ListingDecision} decide (which copies are stale, adopted, committed, missing,
 * restamped or mirrored), and runs its commands through the dispatcher's collaborators as they come. What the
 * cluster reports of a current attempt is mirrored onto the workload ({@link RemoteStatusMirror}) unless it is
 * unchanged since its last mirror ({@link MirroredReports}).
 */
final class AttemptListings {
    private static final Logger log = LoggerFactory.getLogger(AttemptListings.class);

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final RemoteStatusMirror mirror;
    private final ListingDecision decision;
    private final ListingFacts facts = new AdmissionFacts();
    /** Per cluster, the attempts {@link #finishedFirst} finished since the cluster's last listing. */
    private final Map<String, Set<String>> finishedBeforeListing = new HashMap<>();
    /** Per cluster, the agent's epoch read in the poll whose listing comes next. */
    private final Map<String, ListingDecision.Reading> agentEpochs = new HashMap<>();

    /** What the last mirror of each listed report saw: an unchanged report is not mirrored again. */
    private final MirroredReports<WorkloadKey> reports = new MirroredReports<>(MirroredReports.FULL_MIRROR_INTERVAL);
    /** Counts {@link #workloadChanged} calls: a mirror during which a workload's status was written is not remembered. */
    private long workloadChanges;

    AttemptListings(DispatchController dispatcher, ManagerState state, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.mirror = new RemoteStatusMirror(dispatcher, state, clock);
        this.decision = new ListingDecision(epoch, DispatchController.REPORT_LAG);
    }

    void agentEpochRead(String cluster, long agentEpoch, Instant readAt, Instant listingStartedAt) {
        agentEpochs.put(cluster, new ListingDecision.Reading(agentEpoch, readAt, listingStartedAt));
    }

    /**
     * Mirrors only the finished reports (Succeeded, Failed) of current attempts on the cluster, as {@link #listed}
     * would ({@link ListingDecision#finished}); returns how many workloads finished. Their copies are deleted by the
     * mirror; the next listing of the cluster leaves them out. {@code afterEach} runs after each workload finished (a
     * scheduling slice: the first freed quota is handed out before the next mirror's writes).
     */
    int finishedFirst(String cluster, List<RemoteWorkload> finished, Runnable afterEach) {
        Set<String> handled = finishedBeforeListing.computeIfAbsent(cluster, c -> new HashSet<>());
        int count = 0;
        for (RemoteWorkload remote : finished) {
            ListedCopy copy = copy(cluster, remote);
            DispatchAttempt attempt = decision.finished(cluster, copy, dispatcher.attempts());
            if (attempt == null) continue;
            mirror.mirror(copy.key(), cluster, attempt, remote.getStatus());
            if (!dispatcher.attempts().has(copy.key())) {
                handled.add(copy.attemptId());
                count++;
                afterEach.run();
            }
        }
        return count;
    }

    /** Runs the listing's decision ({@link ListingDecision}), each command as it is decided. */
    void listed(String cluster, List<RemoteWorkload> all) {
        reports.listingBegins(cluster, clock.instant());
        // copies finished just before (finishedFirst) were mirrored and their deletion sent: not deleted again as stale
        Set<String> handled = finishedBeforeListing.remove(cluster);
        Map<ListedCopy, RemoteWorkload> remotes = new IdentityHashMap<>();
        List<ListedCopy> copies = new ArrayList<>();
        for (RemoteWorkload remote : all) {
            if (handled != null && handled.contains(remote.getSpec().getAttemptId())) continue;
            ListedCopy copy = copy(cluster, remote);
            remotes.put(copy, remote);
            copies.add(copy);
        }
        ListingDecision.Listing listing = new ListingDecision.Listing(cluster, agentEpochs.remove(cluster), copies);
        decision.listed(listing, dispatcher.attempts(), facts, clock.instant(), command -> run(command, remotes));
        Set<WorkloadKey> seen = new HashSet<>();
        copies.forEach(copy -> seen.add(copy.key()));
        reports.listingEnds(cluster, seen);
    }

    private void run(ListingCommand command, Map<ListedCopy, RemoteWorkload> remotes) {
        if (command instanceof DropCluster drop) {
            log.atWarn().addKeyValue("workload", drop.key()).addKeyValue("cluster", drop.cluster()).addKeyValue("attempt", drop.attempt().id())
                    .log("remote attempt missing from the cluster's listings: dispatching again once its lease has run out");
            dispatcher.copies.holdUntilLeaseRunsOut(drop.key(), drop.attempt(), drop.cluster(), drop.why());
            if (drop.lastCopyGone()) dispatcher.lastCopyGone(drop.key(), drop.attempt());
        } else if (command instanceof SupersedeFences supersede) {
            dispatcher.failover.fences.supersede(supersede.cluster(), supersede.poll());
        } else if (command instanceof ListedWithdrawals listed) {
            Map<WorkloadKey, CopyReport> reports = new HashMap<>();
            listed.reports().forEach((key, copy) -> reports.put(key, copy.report()));
            dispatcher.withdrawals.listed(listed.cluster(), listed.seen(), reports);
        } else if (command instanceof Adopted adopted) {
            log.atInfo().addKeyValue("workload", adopted.key()).addKeyValue("cluster", adopted.cluster())
                    .addKeyValue("attempt", adopted.attempt().id()).log("re-adopted remote attempt");
        } else if (command instanceof ListedCommitted committed) {
            dispatcher.commits.listedCommitted(committed.key(), committed.cluster(), committed.attempt());
        } else if (command instanceof DeleteStale stale) {
            dispatcher.deleteRemote(stale.key(), stale.cluster(), stale.attemptId(), stale.why());
        } else if (command instanceof StampEpoch stamp) {
            dispatcher.renewals.stampEpochNow(stamp.key(), stamp.cluster(), stamp.attempt());
        } else if (command instanceof Mirror mirrored) {
            mirrorIfChanged(mirrored.key(), mirrored.cluster(), mirrored.attempt(), remotes.get(mirrored.copy()));
        }
    }

    /** The listing decision's view of a RemoteWorkload. */
    private static ListedCopy copy(String cluster, RemoteWorkload remote) {
        RemoteWorkloadStatus status = remote.getStatus();
        return new ListedCopy(WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName()),
                remote.getSpec().getAttemptId(), remote.getSpec().getReservation(), remote.getSpec().awaitsCommit(),
                remote.getSpec().getFencingEpoch(), remote.getSpec().getLeaseDurationSeconds(),
                status == null ? null : StartTimeoutWithdrawals.copyReport(cluster, status),
                status == null ? null : status.getAttemptId(), remote.getMetadata().getResourceVersion());
    }

    /** Mirrors the report unless it, the attempt and the workload's status are what the last mirror saw ({@link MirroredReports}). */
    private void mirrorIfChanged(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkload remote) {
        if (!reports.mustMirror(cluster, key, seen(remote, attempt))) return;
        long changesBefore = workloadChanges;
        mirror.mirror(key, cluster, attempt, remote.getStatus());
        // a workload status written meanwhile (by this mirror or not) is looked at again by the next listing
        if (changesBefore == workloadChanges && dispatcher.attempts().isCurrent(key, attempt)) reports.mirrored(cluster, key, seen(remote, attempt));
    }

    private static MirroredReports.Seen seen(RemoteWorkload remote, DispatchAttempt attempt) {
        RemoteWorkloadStatus status = remote.getStatus();
        return new MirroredReports.Seen(remote.getSpec().getAttemptId(), remote.getMetadata().getResourceVersion(), status.getPhase(),
                status.getProvisioning() != null, attempt.winner(), attempt.committedTo(), attempt.draining());
    }

    /** The admission controller wrote the workload's status: its reports are mirrored again. */
    void workloadChanged(WorkloadKey key) {
        workloadChanges++;
        reports.workloadChanged(key);
    }

    /** The cluster connected or disconnected: its next listing mirrors every report. */
    void connectionChanged(String cluster) {
        reports.forgetCluster(cluster);
    }

    /** What the listing decision asks of admission, read from the admission controller's workload status. */
    private final class AdmissionFacts implements ListingFacts {
        @Override
        public boolean retired(String attemptId) {
            return dispatcher.retired(attemptId);
        }

        @Override
        public boolean mayAdopt(WorkloadKey key) {
            WorkloadStatus status = state.controller.statusOf(key);
            return status != null && status.isTrue(Conditions.QUOTA_RESERVED) && !status.isTrue(Conditions.FINISHED)
                    && dispatcher.dispatchCheck(status) != null;
        }

        /**
         * True while the workload's MultiKueue check is still Pending: no copy was ever admitted, so a missing
         * one never ran. A copy that ran and vanished is left alone (its end may just not have been mirrored).
         */
        @Override
        public boolean neverAdmittedRemotely(WorkloadKey key) {
            AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
            return check != null && CheckStates.PENDING.equals(check.state());
        }
    }
}
