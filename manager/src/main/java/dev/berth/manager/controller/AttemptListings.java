package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.MirroredReports;
import dev.berth.manager.dispatch.SupersededCreate;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster's listing of the attempts it holds: an attempt recorded there but missing from its listings is
 * dispatched again; a listed attempt that is not current there is deleted; one a restarted manager has no
 * record of is adopted while its workload still holds quota; and what the cluster reports of a current
 * attempt is mirrored onto the workload ({@link RemoteStatusMirror}), unless it is unchanged since its last
 * mirror ({@link MirroredReports}): every listed attempt is still looked at for the rest.
 */
final class AttemptListings {
    private static final Logger log = LoggerFactory.getLogger(AttemptListings.class);

    /** Listings in a row that must miss an attempt before it counts as gone from a cluster. */
    private static final int MISSED_LISTINGS_TO_REDISPATCH = 2;

    private final DispatchController dispatcher;
    private final ManagerState state;
    private final Clock clock;
    private final long epoch;
    private final RemoteStatusMirror mirror;
    /** Per cluster, the attempts {@link #finishedFirst} finished since the cluster's last listing. */
    private final Map<String, Set<String>> finishedBeforeListing = new HashMap<>();
    /** Per cluster, the agent's epoch read in the poll whose listing comes next. */
    private final Map<String, AgentEpochReading> agentEpochs = new HashMap<>();

    /** What the last mirror of each listed report saw: an unchanged report is not mirrored again. */
    private final MirroredReports<WorkloadKey> reports = new MirroredReports<>(MirroredReports.FULL_MIRROR_INTERVAL);
    /** Counts {@link #workloadChanged} calls: a mirror during which a workload's status was written is not remembered. */
    private long workloadChanges;

    private record AgentEpochReading(long epoch, Instant readAt, Instant listingStartedAt) {}

    AttemptListings(DispatchController dispatcher, ManagerState state, Clock clock, long epoch) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.epoch = epoch;
        this.mirror = new RemoteStatusMirror(dispatcher, state, clock);
    }

    void agentEpochRead(String cluster, long agentEpoch, Instant readAt, Instant listingStartedAt) {
        agentEpochs.put(cluster, new AgentEpochReading(agentEpoch, readAt, listingStartedAt));
    }

    /**
     * Mirrors only the finished reports (Succeeded, Failed) of current attempts on the cluster, as {@link #listed}
     * would; returns how many workloads finished. A report is the attempt's own (same attempt id, and the cluster
     * still one of its copies, the winner if one was chosen), so an old attempt's report never finishes a newer one.
     * Their copies are deleted by the mirror; the next listing of the cluster leaves them out. {@code afterEach} runs
     * after each workload finished (a scheduling slice: the first freed quota is handed out before the next mirror's writes).
     */
    int finishedFirst(String cluster, List<RemoteWorkload> finished, Runnable afterEach) {
        Set<String> handled = finishedBeforeListing.computeIfAbsent(cluster, c -> new HashSet<>());
        int count = 0;
        for (RemoteWorkload remote : finished) {
            RemoteWorkloadStatus status = remote.getStatus();
            if (status == null || !(RemoteWorkloadPhase.SUCCEEDED.equals(status.getPhase()) || RemoteWorkloadPhase.FAILED.equals(status.getPhase()))) {
                continue;
            }
            WorkloadKey key = WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName());
            String id = remote.getSpec().getAttemptId();
            DispatchAttempt attempt = dispatcher.attempts().get(key);
            if (attempt == null || !attempt.id().equals(id) || !attempt.clusters().contains(cluster) || attempt.withdrawing()
                    || (attempt.winner() != null && !attempt.winner().equals(cluster))
                    || (status.getAttemptId() != null && !id.equals(status.getAttemptId()))) {
                continue;
            }
            attempt.listed(cluster, StartTimeoutWithdrawals.copyReport(cluster, status));
            mirror.mirror(key, cluster, attempt, status);
            if (!dispatcher.attempts().containsKey(key)) {
                handled.add(id);
                count++;
                afterEach.run();
            }
        }
        return count;
    }

    void listed(String cluster, List<RemoteWorkload> all) {
        reports.listingBegins(cluster, clock.instant());
        // copies finished just before (finishedFirst) were mirrored and their deletion sent: not deleted again as stale
        Set<String> handled = finishedBeforeListing.remove(cluster);
        List<RemoteWorkload> listed = handled == null ? all
                : all.stream().filter(remote -> !handled.contains(remote.getSpec().getAttemptId())).toList();
        Set<WorkloadKey> seen = new HashSet<>();
        Set<String> attemptIds = new HashSet<>();
        for (RemoteWorkload remote : listed) {
            seen.add(WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName()));
            attemptIds.add(remote.getSpec().getAttemptId());
        }
        AgentEpochReading reading = agentEpochs.remove(cluster);
        // without the instant the listing was sent, take it as sent a report lag ago: a create answered since may be missing
        dispatchAgainWhereMissing(cluster, seen, reading != null ? reading.listingStartedAt() : clock.instant().minus(DispatchController.REPORT_LAG));
        if (reading != null) {
            dispatcher.failover.fences.supersede(cluster,
                    new SupersededCreate.Poll(reading.epoch(), reading.readAt(), reading.listingStartedAt(), attemptIds));
        }
        withdrawals(cluster, listed, seen);
        Map<WorkloadKey, DispatchAttempt> attempts = dispatcher.attempts();
        for (RemoteWorkload remote : listed) {
            WorkloadKey key = WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName());
            String id = remote.getSpec().getAttemptId();
            DispatchAttempt attempt = attempts.get(key);
            if (attempt == null) attempt = adopt(key, cluster, remote);
            if (attempt != null && attempt.id().equals(id) && Boolean.FALSE.equals(remote.getSpec().getReservation()) && !attempt.commitConfirmed()) {
                dispatcher.commits.listedCommitted(key, cluster, attempt); // committed earlier: its commit's answer was lost, or a previous leader's
            }
            if (attempt == null || !attempt.id().equals(id) || !attempt.clusters().contains(cluster)
                    || (attempt.winner() != null && !attempt.winner().equals(cluster))) {
                dispatcher.deleteRemote(key, cluster, id, "stale attempt");
                continue;
            }
            attempt.listed(cluster, remote.getStatus() == null ? null : StartTimeoutWithdrawals.copyReport(cluster, remote.getStatus()));
            if (attempt.withdrawing()) continue;
            if (remote.getSpec().getFencingEpoch() < epoch) dispatcher.renewals.stampEpochNow(key, cluster, attempt);
            RemoteWorkloadStatus status = remote.getStatus();
            if (status != null && status.getPhase() != null && (status.getAttemptId() == null || id.equals(status.getAttemptId()))) {
                mirrorIfChanged(key, cluster, attempt, remote);
            }
        }
        reports.listingEnds(cluster, seen);
    }

    /** Mirrors the report unless it, the attempt and the workload's status are what the last mirror saw ({@link MirroredReports}). */
    private void mirrorIfChanged(WorkloadKey key, String cluster, DispatchAttempt attempt, RemoteWorkload remote) {
        if (!reports.mustMirror(cluster, key, seen(remote, attempt))) return;
        long changesBefore = workloadChanges;
        mirror.mirror(key, cluster, attempt, remote.getStatus());
        // a workload status written meanwhile (by this mirror or not) is looked at again by the next listing
        if (changesBefore == workloadChanges && dispatcher.attempts().get(key) == attempt) reports.mirrored(cluster, key, seen(remote, attempt));
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

    /**
     * An attempt recorded as dispatched to a cluster whose listings do not show it, and never admitted there
     * (a leader that died between recording a dispatch and creating it, or the object deleted in the worker
     * cluster before it ran), is not running there: nothing there can run it without its RemoteWorkload. After
     * {@link #MISSED_LISTINGS_TO_REDISPATCH} listings in a row, each made well after the manager knew the
     * attempt and, where this manager sent the create, started after the cluster answered it, the cluster is dropped from the attempt, and a workload left with no copy is dispatched again
     * under a new attempt id, once the dropped copy's lease has run out: a create still in flight (a slow
     * network, a dead leader's last request) may yet arrive.
     */
    private void dispatchAgainWhereMissing(String cluster, Set<WorkloadKey> listed, Instant listingStartedAt) {
        Instant now = clock.instant();
        for (Map.Entry<WorkloadKey, DispatchAttempt> current : new ArrayList<>(dispatcher.attempts().entrySet())) {
            WorkloadKey key = current.getKey();
            DispatchAttempt attempt = current.getValue();
            if (!attempt.clusters().contains(cluster) || attempt.draining() || attempt.withdrawing()) continue;
            if (listed.contains(key) || attempt.knownSince() == null || now.isBefore(attempt.knownSince().plus(DispatchController.REPORT_LAG))
                    || !attempt.listingMustShow(cluster, listingStartedAt)) {
                attempt.listingAccounted(cluster);
                continue;
            }
            int missed = attempt.missedListing(cluster);
            if (missed < MISSED_LISTINGS_TO_REDISPATCH || !neverAdmittedRemotely(key)) continue;
            log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                    .log("remote attempt missing from the cluster's listings: dispatching again once its lease has run out");
            attempt.dropCluster(cluster);
            dispatcher.copies.holdUntilLeaseRunsOut(key, attempt, cluster, "attempt missing from the cluster's listings");
            if (attempt.clusters().isEmpty()) dispatcher.lastCopyGone(key, attempt);
        }
    }

    /** What the listing shows of the copies being withdrawn for not starting in time (their own attempt's status only). */
    private void withdrawals(String cluster, List<RemoteWorkload> listed, Set<WorkloadKey> listedWorkloads) {
        Set<WorkloadKey> seen = new HashSet<>(listedWorkloads);
        Map<WorkloadKey, RemoteWorkloadStatus> statuses = new HashMap<>();
        for (RemoteWorkload remote : listed) {
            WorkloadKey key = WorkloadKey.of(remote.getMetadata().getNamespace(), remote.getSpec().getWorkloadName());
            DispatchAttempt attempt = dispatcher.attempts().get(key);
            RemoteWorkloadStatus status = remote.getStatus();
            boolean ours = attempt != null && attempt.id().equals(remote.getSpec().getAttemptId());
            if (ours && status != null && (status.getAttemptId() == null || attempt.id().equals(status.getAttemptId()))) statuses.put(key, status);
            if (!ours) seen.remove(key);
        }
        dispatcher.withdrawals.listed(cluster, seen, statuses);
    }

    /**
     * True while the workload's MultiKueue check is still Pending: no copy was ever admitted, so a missing
     * one never ran. A copy that ran and vanished is left alone (its end may just not have been mirrored).
     */
    private boolean neverAdmittedRemotely(WorkloadKey key) {
        AdmissionCheckState check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        return check != null && CheckStates.PENDING.equals(check.state());
    }

    /** After a restart without a durable record: the attempt of a workload that still holds quota is kept. */
    private DispatchAttempt adopt(WorkloadKey key, String cluster, RemoteWorkload remote) {
        // an uncommitted reservation never started: withdrawing it (deleted as stale) is always safe, committing it may not be
        if (dispatcher.retired(remote.getSpec().getAttemptId()) || remote.getSpec().awaitsCommit()) return null;
        WorkloadStatus status = state.controller.statusOf(key);
        if (status == null || !status.isTrue(Conditions.QUOTA_RESERVED) || status.isTrue(Conditions.FINISHED)
                || dispatcher.dispatchCheck(status) == null) {
            return null;
        }
        DispatchAttempt attempt = DispatchAttempt.adopted(remote.getSpec().getAttemptId(), cluster,
                Duration.ofSeconds(Math.max(0, remote.getSpec().getLeaseDurationSeconds())), clock.instant());
        dispatcher.attempts().put(key, attempt);
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attempt.id())
                .log("re-adopted remote attempt");
        return attempt;
    }
}
