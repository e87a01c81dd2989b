package dev.berth.manager.core;

import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Duration;
import java.time.Instant;

/**
 * Kueue's spec.maximumExecutionTimeSeconds (workload_controller reconcileMaxExecutionTime): an admitted
 * workload may run for that long in total, counting status.accumulatedPastExecutionTimeSeconds from
 * earlier admissions plus the time since Admitted last became True. When it is used up the workload is
 * deactivated: spec.active=false, evicted with reason DeactivatedDueToMaximumExecutionTimeExceeded.
 */
final class ExecutionTimeLimit {
    /** Kueue's Evicted reason: the eviction reason Deactivated joined to the underlying cause. */
    static final String EVICTED_REASON = Reasons.DEACTIVATED + "DueTo" + Reasons.MAXIMUM_EXECUTION_TIME_EXCEEDED;
    static final String EVICTED_MESSAGE = "The workload is deactivated due to exceeding the maximum execution time";

    private ExecutionTimeLimit() {}

    /** The time the workload may still run admitted; null when it is not admitted or has no limit. */
    static Duration remaining(WorkloadRequest request, WorkloadStatus status, Instant now) {
        Long limit = request.maximumExecutionTimeSeconds();
        Condition admitted = status.condition(Conditions.ADMITTED);
        if (limit == null || admitted == null || !admitted.status() || admitted.lastTransitionTime() == null) return null;
        long past = status.accumulatedPastExecutionTimeSeconds() == null ? 0 : status.accumulatedPastExecutionTimeSeconds();
        return Duration.ofSeconds(limit - past).minus(Duration.between(admitted.lastTransitionTime(), now));
    }

    static boolean exceeded(WorkloadRequest request, WorkloadStatus status, Instant now) {
        Duration remaining = remaining(request, status, now);
        return remaining != null && (remaining.isNegative() || remaining.isZero());
    }
}
