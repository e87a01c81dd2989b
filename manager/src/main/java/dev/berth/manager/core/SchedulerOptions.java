package dev.berth.manager.core;

import dev.berth.manager.scheduling.FairSharingSettings;
import dev.berth.manager.scheduling.FairSharingStrategy;
import java.time.Duration;
import java.util.List;

/**
 * Manager-wide scheduling settings, the counterpart of Kueue's Configuration: fair sharing and its
 * preemption strategies, objectRetentionPolicies.workloads.afterFinished (null keeps finished
 * workloads forever), and the manager's scheduling batch window: how long after a change the pass
 * that decides it starts, so that changes arriving together (a submission and the finishes that make
 * room for it) are decided together (zero decides each change at once, before its write is answered);
 * waitForPodsReady ({@link PodsReadyPolicy}, off by default) and admissionFairSharing (null: off).
 */
public record SchedulerOptions(boolean fairSharing,
                               List<FairSharingStrategy> preemptionStrategies,
                               Duration retainFinishedWorkloadsFor,
                               Duration schedulingBatchWindow,
                               PodsReadyPolicy waitForPodsReady,
                               AdmissionFairSharing admissionFairSharing,
                               DeactivatedRetention deactivatedRetention) implements FairSharingSettings {
    /** Long enough for events a few milliseconds apart, short enough not to be noticed by a submitter. */
    public static final Duration DEFAULT_BATCH_WINDOW = Duration.ofMillis(10);

    public static final SchedulerOptions DEFAULTS = new SchedulerOptions(false,
            List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
            null, DEFAULT_BATCH_WINDOW, PodsReadyPolicy.DISABLED, null, DeactivatedRetention.FOREVER);

    public SchedulerOptions {
        preemptionStrategies = List.copyOf(preemptionStrategies);
        if (deactivatedRetention == null) deactivatedRetention = DeactivatedRetention.FOREVER;
        if (schedulingBatchWindow == null || schedulingBatchWindow.isNegative()) {
            throw new IllegalArgumentException("schedulingBatchWindow must be zero or positive");
        }
        if (waitForPodsReady == null) waitForPodsReady = PodsReadyPolicy.DISABLED;
        if (deactivatedRetention == null) deactivatedRetention = DeactivatedRetention.FOREVER;
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, PodsReadyPolicy.DISABLED, null,
                DeactivatedRetention.FOREVER);
    }

    /** The same options with waitForPodsReady set. */
    public SchedulerOptions withWaitForPodsReady(PodsReadyPolicy policy) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, policy,
                admissionFairSharing, deactivatedRetention);
    }

    /** These options with Kueue's admissionFairSharing (null turns it off). */
    public SchedulerOptions withAdmissionFairSharing(AdmissionFairSharing settings) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, waitForPodsReady,
                settings, deactivatedRetention);
    }

    /** Kueue's objectRetentionPolicies.workloads.afterDeactivatedByKueue; null keeps such workloads forever. */
    public SchedulerOptions withRetainDeactivatedFor(Duration afterDeactivatedByKueue) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow,
                waitForPodsReady, admissionFairSharing, new DeactivatedRetention(afterDeactivatedByKueue));
    }

    /**
     * How long a Workload that Kueue's own rules deactivated (Evicted with a DeactivatedDueTo... reason:
     * a Rejected admission check, the maximum execution time, the requeuing limit) is kept before it
     * is deleted; null keeps it forever. A workload a user deactivated is never deleted for this.
     */
    public record DeactivatedRetention(Duration afterDeactivatedByKueue) {
        public static final DeactivatedRetention FOREVER = new DeactivatedRetention(null);

        public DeactivatedRetention {
            if (afterDeactivatedByKueue != null && afterDeactivatedByKueue.isNegative()) {
                throw new IllegalArgumentException("afterDeactivatedByKueue must be zero or positive");
            }
        }

        /** Kueue's rule: inactive, Evicted=True with a DeactivatedDueTo... reason, for at least the retention. */
        public boolean expired(boolean active, WorkloadStatus status, long nowMillis) {
            if (afterDeactivatedByKueue == null || active) return false;
            Condition evicted = status.condition(dev.berth.protocol.Conditions.EVICTED);
            if (evicted == null || !evicted.status() || evicted.reason() == null || !evicted.reason().startsWith("DeactivatedDueTo")) return false;
            long since = evicted.lastTransitionTime() == null ? nowMillis : evicted.lastTransitionTime().toEpochMilli();
            return nowMillis - since >= afterDeactivatedByKueue.toMillis();
        }
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, DEFAULT_BATCH_WINDOW, PodsReadyPolicy.DISABLED, null,
                DeactivatedRetention.FOREVER);
    }
}
