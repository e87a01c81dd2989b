package dev.berth.manager.core;

import dev.berth.manager.model.Admission;
import java.time.Instant;
import java.util.List;

/**
 * A workload's status in Kueue's schema. admission is null until quota is reserved.
 * requeueCount counts evictions that sent the workload back to its queue; requeueAt (null when none)
 * is when a workload in backoff may be queued again (status.requeueState.requeueAt).
 * accumulatedPastExecutionTimeSeconds (null until it first lost its admission) is the time it ran
 * admitted before, which counts against spec.maximumExecutionTimeSeconds.
 */
public record WorkloadStatus(List<Condition> conditions,
                             Admission admission,
                             List<AdmissionCheckState> admissionChecks,
                             int requeueCount,
                             Instant requeueAt,
                             Long accumulatedPastExecutionTimeSeconds) {
    public static final WorkloadStatus EMPTY = new WorkloadStatus(List.of(), null, List.of(), 0);

    public WorkloadStatus {
        conditions = List.copyOf(conditions);
        admissionChecks = List.copyOf(admissionChecks);
    }

    public WorkloadStatus(List<Condition> conditions, Admission admission, List<AdmissionCheckState> admissionChecks,
                          int requeueCount) {
        this(conditions, admission, admissionChecks, requeueCount, null, null);
    }

    public Condition condition(String type) {
        for (Condition condition : conditions) {
            if (condition.type().equals(type)) return condition;
        }
        return null;
    }

    public boolean isTrue(String type) {
        Condition condition = condition(type);
        return condition != null && condition.status();
    }

    /** The same status with other conditions, admission and checks; the requeue state and accumulated time carry over. */
    WorkloadStatus with(List<Condition> conditions, Admission admission, List<AdmissionCheckState> checks, int requeueCount) {
        return new WorkloadStatus(conditions, admission, checks, requeueCount, requeueAt, accumulatedPastExecutionTimeSeconds);
    }

    WorkloadStatus withRequeueAt(Instant at) {
        return new WorkloadStatus(conditions, admission, admissionChecks, requeueCount, at, accumulatedPastExecutionTimeSeconds);
    }

    WorkloadStatus withAccumulatedPastExecutionTimeSeconds(Long seconds) {
        return new WorkloadStatus(conditions, admission, admissionChecks, requeueCount, requeueAt, seconds);
    }
}
