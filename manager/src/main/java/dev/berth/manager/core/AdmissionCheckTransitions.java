package dev.berth.manager.core;

import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a new admission-check state does to a workload, as Kueue's workload controller: Ready on
 * every check admits it; Retry evicts it (quota released, checks back to Pending) and, with
 * requeueAfterSeconds, keeps it out of its queue until status.requeueState.requeueAt; Rejected
 * deactivates it (spec.active=false) whether or not it holds quota.
 */
final class AdmissionCheckTransitions {
    private static final Logger log = LoggerFactory.getLogger(AdmissionCheckTransitions.class);

    private final QueueManager queues;
    private final QuotaRelease quotaRelease;
    private final WorkloadStatusWriter writer;
    private final QueueStatusReporter queueStatus;
    private final AdmissionListener listener;

    AdmissionCheckTransitions(QueueManager queues, QuotaRelease quotaRelease, WorkloadStatusWriter writer,
                              QueueStatusReporter queueStatus, AdmissionListener listener) {
        this.queues = queues;
        this.quotaRelease = quotaRelease;
        this.writer = writer;
        this.queueStatus = queueStatus;
        this.listener = listener;
    }

    void checkStateChanged(WorkloadEntry entry, String check, String state, String message, Integer requeueAfterSeconds) {
        Instant now = writer.now();
        entry.status = WorkloadConditions.checkState(entry.status, check, state, message, requeueAfterSeconds, now);
        if (CheckStates.REJECTED.equals(state)) {
            deactivateForRejectedCheck(entry);
            return;
        }
        if (!entry.holdsQuota()) {
            writer.write(entry, entry.status);
            return;
        }
        switch (state) {
            case CheckStates.RETRY -> {
                String evictedMessage = "Evicted due to " + CheckStateMessages.describe(entry.status, CheckStates.RETRY);
                Instant requeueAt = requeueAfterSeconds == null || requeueAfterSeconds <= 0 ? null : now.plusSeconds(requeueAfterSeconds);
                entry.status = entry.status.withRequeueAt(requeueAt);
                quotaRelease.evict(entry, Reasons.ADMISSION_CHECK, evictedMessage, null, true);
            }
            case CheckStates.READY -> {
                if (allChecksReady(entry) && !entry.isAdmitted()) admitAfterChecks(entry, now);
                writer.write(entry, entry.status);
            }
            default -> {
                // Kueue's SyncAdmittedCondition: an admitted workload whose check is no longer Ready is not admitted
                if (entry.isAdmitted()) entry.status = WorkloadConditions.uncheckedAdmission(entry.status, now);
                writer.write(entry, entry.status);
            }
        }
        queueStatus.touched(entry);
    }

    private void admitAfterChecks(WorkloadEntry entry, Instant now) {
        entry.status = WorkloadConditions.admitted(entry.status, now);
        long nowMillis = writer.millis();
        listener.admitted(WorkloadMetricLabels.of(entry, entry.admission.clusterQueue()), Math.max(0, nowMillis - entry.queueOrderMillis),
                Math.max(0, nowMillis - entry.reservedAtMillis));
        log.atInfo().addKeyValue("workload", entry.key()).addKeyValue("clusterQueue", entry.admission.clusterQueue())
                .log("workload admitted: all admission checks ready");
    }

    /** Kueue's reconcileCheckBasedEviction for Rejected: spec.active=false, Evicted DeactivatedDueToAdmissionCheck. */
    private void deactivateForRejectedCheck(WorkloadEntry entry) {
        String reason = Reasons.DEACTIVATED + "DueTo" + Reasons.ADMISSION_CHECK;
        String message = "The workload is deactivated due to " + CheckStateMessages.describe(entry.status, CheckStates.REJECTED);
        entry.active = false;
        entry.status = entry.status.withRequeueAt(null); // Kueue clears the backoff of a deactivated workload
        if (entry.holdsQuota()) {
            quotaRelease.evict(entry, reason, message, null, false);
        } else {
            queues.unqueue(entry);
            writer.write(entry, WorkloadConditions.evicted(entry.status, reason, message, null, false, writer.now()));
        }
        queueStatus.touched(entry);
    }

    private static boolean allChecksReady(WorkloadEntry entry) {
        for (AdmissionCheckState check : entry.status.admissionChecks()) {
            if (!CheckStates.READY.equals(check.state())) return false;
        }
        return true;
    }
}
