package dev.berth.manager.core;

import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Workload's PodsReady condition as Kueue's job reconciler writes it (generatePodsReadyCondition):
 * False/WaitForStart until every admitted pod is ready, True/Started once they are, False/WaitForRecovery
 * when they stop being all ready, True/Recovered when they are again. lastTransitionTime moves only
 * when the status flips; the WaitForRecovery flip starts recoveryTimeout's clock.
 */
final class PodsReadyConditions {
    static final String NOT_READY_MESSAGE = "Not all pods are ready or succeeded";
    static final String WAITING_FOR_RECOVERY_MESSAGE = "At least one pod has failed, waiting for recovery";
    static final String READY_MESSAGE = "All pods reached readiness and the workload is running";

    private PodsReadyConditions() {}

    /** The condition for an admitted workload whose worker reports allReady. */
    static Condition next(WorkloadStatus status, boolean admitted, boolean allReady, Instant now) {
        Condition current = status.condition(Conditions.PODS_READY);
        if (!admitted) return new Condition(Conditions.PODS_READY, false, Reasons.WAIT_FOR_START, NOT_READY_MESSAGE, now);
        if (allReady) {
            boolean recovering = current != null && (Reasons.WAIT_FOR_RECOVERY.equals(current.reason())
                    || Reasons.RECOVERED.equals(current.reason()));
            return new Condition(Conditions.PODS_READY, true, recovering ? Reasons.RECOVERED : Reasons.STARTED, READY_MESSAGE, now);
        }
        if (current != null && (current.status() || Reasons.WAIT_FOR_RECOVERY.equals(current.reason()))) {
            return new Condition(Conditions.PODS_READY, false, Reasons.WAIT_FOR_RECOVERY, WAITING_FOR_RECOVERY_MESSAGE, now);
        }
        return new Condition(Conditions.PODS_READY, false, Reasons.WAIT_FOR_START, NOT_READY_MESSAGE, now);
    }

    /** The status with the condition set; the same status when nothing about it changed. */
    static WorkloadStatus with(WorkloadStatus status, Condition update) {
        List<Condition> conditions = new ArrayList<>(status.conditions());
        for (int i = 0; i < conditions.size(); i++) {
            Condition existing = conditions.get(i);
            if (!existing.type().equals(update.type())) continue;
            if (existing.status() == update.status() && existing.reason().equals(update.reason())
                    && existing.message().equals(update.message())) {
                return status;
            }
            Instant changed = existing.status() == update.status() ? existing.lastTransitionTime() : update.lastTransitionTime();
            conditions.set(i, new Condition(update.type(), update.status(), update.reason(), update.message(), changed));
            return status.with(conditions, status.admission(), status.admissionChecks(), status.requeueCount());
        }
        conditions.add(update);
        return status.with(conditions, status.admission(), status.admissionChecks(), status.requeueCount());
    }

    /** After an eviction the pods are gone: PodsReady turns False/WaitForStart (when the workload had the condition). */
    static WorkloadStatus afterEviction(WorkloadStatus status, Instant now) {
        if (status.condition(Conditions.PODS_READY) == null) return status;
        return with(status, new Condition(Conditions.PODS_READY, false, Reasons.WAIT_FOR_START, NOT_READY_MESSAGE, now));
    }
}
