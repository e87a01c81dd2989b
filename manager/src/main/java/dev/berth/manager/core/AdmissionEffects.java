package dev.berth.manager.core;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.scheduling.FlavorAssignment;
import dev.berth.manager.scheduling.PreemptionTarget;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a scheduling cycle's decisions (Kueue's assume step): a reservation goes into the quota
 * cache first and is rolled back when its status cannot be recorded; preemptions evict their
 * victims with Kueue's messages; a workload left waiting gets its pending reason.
 */
final class AdmissionEffects implements SchedulingCycle.Effects {
    private static final Logger log = LoggerFactory.getLogger(AdmissionEffects.class);

    private final SchedulerState state;
    private final QuotaRelease quotaRelease;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    private final AdmissionListener listener;
    private final WaitForPodsReady podsReady;

    AdmissionEffects(SchedulerState state, QuotaRelease quotaRelease, WorkloadStatusWriter writer,
                     QueueStatusReporter queueStatus, AdmissionListener listener, WaitForPodsReady podsReady) {
        this.podsReady = podsReady;
        this.state = state;
        this.quotaRelease = quotaRelease;
        this.writer = writer;
        this.queueStatus = queueStatus;
        this.listener = listener;
    }

    @Override
    public boolean admit(WorkloadEntry entry, FlavorAssignment assignment) {
        String queue = entry.clusterQueue;
        ClusterQueueSpec spec = state.clusterQueues.get(queue);
        var admission = assignment.toAdmission(queue);
        List<String> checks = new ArrayList<>();
        for (AdmissionCheckRule rule : spec.admissionChecks()) {
            if (rule.appliesTo(admission.flavors())) checks.add(rule.name());
        }
        entry.admission = admission;
        entry.usage = admission.usage();
        entry.reservedAtMillis = writer.millis();
        state.quota.addUsage(queue, entry.usage);
        state.reserved(entry, queue);
        long waitedMillis = Math.max(0, entry.reservedAtMillis - entry.queueOrderMillis);
        WorkloadStatus next = WorkloadConditions.quotaReserved(entry.status, admission, checks, waitedMillis / 1000, writer.now());
        try {
            writer.writeOrThrow(entry, next);
        } catch (RuntimeException writeFailed) {
            state.quota.removeUsage(queue, entry.usage);
            state.released(entry, queue);
            entry.admission = null;
            entry.usage = null;
            log.atWarn().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                    .setCause(writeFailed).log("admission not recorded; workload stays pending");
            return false;
        }
        entry.reservedInPass = state.pass;
        state.localQueueUsage.admitted(entry, writer.now());
        WorkloadMetricLabels labels = WorkloadMetricLabels.of(entry, queue);
        listener.quotaReserved(labels, waitedMillis);
        if (checks.isEmpty()) listener.admitted(labels, waitedMillis, -1);
        queueStatus.touched(entry);
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", queue)
                .addKeyValue("flavors", admission.flavors()).addKeyValue("checks", checks)
                .log(checks.isEmpty() ? "workload admitted" : "quota reserved; waiting for admission checks");
        return true;
    }

    @Override
    public boolean admissionHeldBack(WorkloadEntry entry) {
        return podsReady.holdsBack(entry);
    }

    @Override
    public void preempt(WorkloadEntry preemptor, List<PreemptionTarget> targets) {
        for (PreemptionTarget target : targets) {
            WorkloadEntry victim = state.workloads.get(target.victim().key());
            // a victim already evicted, whose copy is still stopping, is not evicted twice (Kueue skips evicted targets)
            if (victim == null || !victim.holdsQuota() || victim.awaitingStop()) continue;
            String message = "Preempted to accommodate a workload (" + preemptor.key() + ") due to " + describe(target.reason());
            quotaRelease.evict(victim, Reasons.PREEMPTED, message, target.reason(), true);
            listener.preempted(preemptor.clusterQueue, target.reason());
        }
        stillPending(preemptor, "Pending the preemption of " + targets.size() + " workload(s)");
    }

    @Override
    public void stillPending(WorkloadEntry entry, String message) {
        Condition current = entry.status.condition(Conditions.QUOTA_RESERVED);
        if (current != null && !current.status() && message.equals(current.message())) return;
        writer.write(entry, WorkloadConditions.pending(entry.status, message, writer.now()));
    }

    private static String describe(String reason) {
        return switch (reason) {
            case Reasons.IN_CLUSTER_QUEUE -> "prioritization in the ClusterQueue";
            case Reasons.IN_COHORT_RECLAMATION -> "reclamation within the cohort";
            case Reasons.IN_COHORT_FAIR_SHARING -> "fair sharing within the cohort";
            case Reasons.IN_COHORT_RECLAIM_WHILE_BORROWING -> "reclamation within the cohort while borrowing";
            default -> reason;
        };
    }
}
