package dev.berth.manager.core;

import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.Reasons;
import java.time.Duration;
import java.time.Instant;

/**
 * Kueue's waitForPodsReady timeouts (workload_controller reconcileNotReadyTimeout): an admitted
 * workload whose PodsReady is not True within timeout of its Admitted transition (WaitForStart), or,
 * with recoveryTimeout, within recoveryTimeout of losing readiness (WaitForRecovery), is evicted with
 * reason PodsReadyTimeout and queued again after a backoff; once it was requeued
 * backoffLimitCount times it is deactivated instead (RequeuingLimitExceeded). Pure: the caller passes
 * the time.
 */
final class PodsReadyTimeout {
    static final String DEACTIVATED_REASON = Reasons.DEACTIVATED + "DueTo" + Reasons.REQUEUING_LIMIT_EXCEEDED;
    static final String DEACTIVATED_MESSAGE = "The workload is deactivated due to exceeding the maximum number of re-queuing retries";

    /** What waits on the workload: the underlying cause (WaitForStart or WaitForRecovery) and the time left. */
    record Wait(String underlyingCause, Duration remaining) {
        boolean expired() {
            return remaining.isNegative() || remaining.isZero();
        }
    }

    private PodsReadyTimeout() {}

    /** The timeout running for the workload, or null when none is (not admitted, ready, or waitForPodsReady off). */
    static Wait waiting(PodsReadyPolicy policy, WorkloadStatus status, Instant now) {
        if (!policy.enable()) return null;
        Condition admitted = status.condition(Conditions.ADMITTED);
        if (admitted == null || !admitted.status() || status.admission() == null) return null;
        Condition podsReady = status.condition(Conditions.PODS_READY);
        if (podsReady != null && podsReady.status()) return null;
        if (podsReady == null || Reasons.WAIT_FOR_START.equals(podsReady.reason()) || Conditions.PODS_READY.equals(podsReady.reason())) {
            Instant since = admitted.lastTransitionTime() == null ? now : admitted.lastTransitionTime();
            return new Wait(Reasons.WAIT_FOR_START, policy.timeout().minus(Duration.between(since, now)));
        }
        if (Reasons.WAIT_FOR_RECOVERY.equals(podsReady.reason()) && policy.recoveryTimeout() != null) {
            Instant since = podsReady.lastTransitionTime() == null ? now : podsReady.lastTransitionTime();
            return new Wait(Reasons.WAIT_FOR_RECOVERY, policy.recoveryTimeout().minus(Duration.between(since, now)));
        }
        return null;
    }

    /** Kueue's triggerDeactivation: the next requeue would pass backoffLimitCount. */
    static boolean exceedsRequeuingLimit(PodsReadyPolicy policy, WorkloadStatus status) {
        Integer limit = policy.requeuingStrategy().backoffLimitCount();
        return limit != null && status.requeueCount() + 1 > limit;
    }

    /** Kueue's UpdateRequeueState: now + base * 2^(n-1) for the n-th requeue, capped at the maximum; no jitter. */
    static Instant requeueAt(PodsReadyPolicy policy, WorkloadStatus status, Instant now) {
        PodsReadyPolicy.RequeuingStrategy strategy = policy.requeuingStrategy();
        int seconds = AdmissionCheckBackoff.backoffSeconds(status.requeueCount() + 1, strategy.backoffBaseSeconds(),
                strategy.backoffMaxSeconds());
        return now.plusSeconds(seconds);
    }

    /** Kueue's eviction message for a PodsReady timeout. */
    static String evictedMessage(String workload) {
        return "Exceeded the PodsReady timeout " + workload;
    }
}
