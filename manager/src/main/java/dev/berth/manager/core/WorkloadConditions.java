package dev.berth.manager.core;

import dev.berth.manager.model.Admission;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The status transitions of a workload, with Kueue's condition types, reasons and messages.
 * Each method returns a new status; lastTransitionTime changes only when a condition's status flips.
 */
final class WorkloadConditions {
    /** Kueue's reason for Admitted=False while the quota is reserved and a check is not Ready. */
    static final String UNSATISFIED_CHECKS = "UnsatisfiedChecks";
    private WorkloadConditions() {}

    static WorkloadStatus pending(WorkloadStatus status, String message, Instant now) {
        return status(status, now, status.admission(), status.admissionChecks(),
                new Condition(Conditions.QUOTA_RESERVED, false, Reasons.PENDING, message, now));
    }

    static WorkloadStatus quotaReserved(WorkloadStatus status, Admission admission, List<String> checks,
                                        long waitSeconds, Instant now) {
        List<AdmissionCheckState> checkStates = new ArrayList<>();
        for (String check : checks) {
            // Kueue keeps a check's retryCount across evictions: a ProvisioningRequest check names its next request by it
            int retries = status.admissionChecks().stream().filter(c -> c.name().equals(check)).mapToInt(AdmissionCheckState::retryCount)
                    .findFirst().orElse(0);
            checkStates.add(new AdmissionCheckState(check, CheckStates.PENDING, "", now, retries, null));
        }
        List<Condition> updates = new ArrayList<>();
        updates.add(new Condition(Conditions.QUOTA_RESERVED, true, Reasons.QUOTA_RESERVED,
                "Quota reserved in ClusterQueue " + admission.clusterQueue() + ", wait time since queued was " + waitSeconds + "s", now));
        if (status.condition(Conditions.EVICTED) != null) {
            updates.add(new Condition(Conditions.EVICTED, false, Reasons.QUOTA_RESERVED, "Previously: " + status.condition(Conditions.EVICTED).message(), now));
        }
        if (status.condition(Conditions.PREEMPTED) != null) {
            updates.add(new Condition(Conditions.PREEMPTED, false, Reasons.QUOTA_RESERVED, "Previously: " + status.condition(Conditions.PREEMPTED).message(), now));
        }
        if (status.condition(Conditions.REQUEUED) != null) {
            updates.add(new Condition(Conditions.REQUEUED, false, Reasons.QUOTA_RESERVED, "Quota reserved", now));
        }
        if (checks.isEmpty()) {
            updates.add(new Condition(Conditions.ADMITTED, true, Reasons.ADMITTED, "The workload is admitted", now));
        } else {
            updates.add(new Condition(Conditions.ADMITTED, false, Reasons.PENDING,
                    "The workload has not all admission checks ready: waiting for " + String.join(", ", checks), now));
        }
        return status(status, now, admission, checkStates, updates.toArray(Condition[]::new));
    }

    static WorkloadStatus admitted(WorkloadStatus status, Instant now) {
        return status(status, now, status.admission(), status.admissionChecks(),
                new Condition(Conditions.ADMITTED, true, Reasons.ADMITTED, "The workload is admitted", now));
    }

    /** Kueue's Admitted=False UnsatisfiedChecks: the quota is still reserved, but an admission check is no longer Ready. */
    static WorkloadStatus uncheckedAdmission(WorkloadStatus status, Instant now) {
        List<String> waiting = status.admissionChecks().stream()
                .filter(c -> !CheckStates.READY.equals(c.state())).map(AdmissionCheckState::name).toList();
        return status(status, now, status.admission(), status.admissionChecks(), new Condition(Conditions.ADMITTED, false, UNSATISFIED_CHECKS,
                "The workload has not all admission checks ready: waiting for " + String.join(", ", waiting), now));
    }

    static WorkloadStatus checkState(WorkloadStatus status, String check, String state, String message,
                                     Integer requeueAfterSeconds, Instant now) {
        List<AdmissionCheckState> checks = new ArrayList<>();
        boolean found = false;
        for (AdmissionCheckState existing : status.admissionChecks()) {
            if (existing.name().equals(check)) {
                Instant changed = existing.state().equals(state) ? existing.lastTransitionTime() : now;
                checks.add(new AdmissionCheckState(check, state, message == null ? "" : message, changed,
                        existing.retryCount(), requeueAfterSeconds));
                found = true;
            } else {
                checks.add(existing);
            }
        }
        if (!found) checks.add(new AdmissionCheckState(check, state, message == null ? "" : message, now, 0, requeueAfterSeconds));
        return status.with(status.conditions(), status.admission(), checks, status.requeueCount());
    }

    /**
     * Evicted while the workload's copy on a worker cluster is stopped: Evicted (and Preempted) turn True,
     * QuotaReserved and Admitted stay as they are, as in Kueue until the evicted job is no longer active.
     * {@link #evicted} follows once the copy is confirmed stopped.
     */
    static WorkloadStatus evictionPending(WorkloadStatus status, String reason, String message, String preemptionReason, Instant now) {
        List<Condition> updates = new ArrayList<>();
        updates.add(new Condition(Conditions.EVICTED, true, reason, message, now));
        if (preemptionReason != null) updates.add(new Condition(Conditions.PREEMPTED, true, preemptionReason, message, now));
        return status(status, now, status.admission(), status.admissionChecks(), updates.toArray(Condition[]::new));
    }

    /** Evicted: quota released and (when requeue is true) back in the queue. preemptionReason is null unless preempted. */
    static WorkloadStatus evicted(WorkloadStatus status, String reason, String message, String preemptionReason,
                                  boolean requeue, Instant now) {
        List<Condition> updates = new ArrayList<>();
        updates.add(new Condition(Conditions.EVICTED, true, reason, message, now));
        if (preemptionReason != null) updates.add(new Condition(Conditions.PREEMPTED, true, preemptionReason, message, now));
        updates.add(new Condition(Conditions.QUOTA_RESERVED, false, Reasons.PENDING, message, now));
        updates.add(new Condition(Conditions.ADMITTED, false, Reasons.NO_RESERVATION, "The workload has no reservation", now));
        if (requeue) updates.add(new Condition(Conditions.REQUEUED, true, reason, message, now));
        List<AdmissionCheckState> resetChecks = new ArrayList<>();
        for (AdmissionCheckState check : status.admissionChecks()) {
            // Kueue's resetChecksOnEviction: back to Pending, counting the Retry that caused this eviction
            int retries = check.retryCount() + (CheckStates.RETRY.equals(check.state()) ? 1 : 0);
            resetChecks.add(new AdmissionCheckState(check.name(), CheckStates.PENDING, "", now, retries, check.requeueAfterSeconds()));
        }
        WorkloadStatus next = status(status, now, null, resetChecks, updates.toArray(Condition[]::new));
        WorkloadStatus evicted = next.with(next.conditions(), null, next.admissionChecks(), status.requeueCount() + (requeue ? 1 : 0));
        Condition admitted = status.condition(Conditions.ADMITTED);
        if (admitted == null || !admitted.status() || admitted.lastTransitionTime() == null) return evicted;
        long ran = Math.max(0, java.time.Duration.between(admitted.lastTransitionTime(), now).toSeconds());
        Long before = status.accumulatedPastExecutionTimeSeconds();
        return evicted.withAccumulatedPastExecutionTimeSeconds(before == null ? ran : before + ran);
    }

    /** The requeueAt of a backoff has passed: it is cleared and Requeued turns True with reason BackoffFinished. */
    static WorkloadStatus backoffFinished(WorkloadStatus status, Instant now) {
        return status(status, now, status.admission(), status.admissionChecks(),
                new Condition(Conditions.REQUEUED, true, "BackoffFinished", "The workload backoff was finished", now)).withRequeueAt(null);
    }

    static WorkloadStatus finished(WorkloadStatus status, boolean succeeded, String reason, String message, Instant now) {
        String finishedReason = reason != null && !reason.isBlank() ? reason : (succeeded ? Reasons.SUCCEEDED : Reasons.FAILED);
        String finishedMessage = message != null && !message.isBlank() ? message
                : (succeeded ? "Job finished successfully" : "Job failed");
        return status(status, now, status.admission(), status.admissionChecks(),
                new Condition(Conditions.FINISHED, true, finishedReason, finishedMessage, now));
    }

    private static WorkloadStatus status(WorkloadStatus status, Instant now, Admission admission,
                                         List<AdmissionCheckState> checks, Condition... updates) {
        List<Condition> conditions = new ArrayList<>(status.conditions());
        for (Condition update : updates) {
            int index = indexOf(conditions, update.type());
            if (index < 0) {
                conditions.add(update);
            } else {
                Condition existing = conditions.get(index);
                Instant changed = existing.status() == update.status() ? existing.lastTransitionTime() : now;
                conditions.set(index, new Condition(update.type(), update.status(), update.reason(), update.message(), changed));
            }
        }
        return status.with(conditions, admission, checks, status.requeueCount());
    }

    private static int indexOf(List<Condition> conditions, String type) {
        for (int i = 0; i < conditions.size(); i++) {
            if (conditions.get(i).type().equals(type)) return i;
        }
        return -1;
    }
}
