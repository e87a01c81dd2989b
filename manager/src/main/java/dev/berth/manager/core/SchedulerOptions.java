package dev.berth.manager.core;

import java.time.Duration;
import java.util.List;

/**
 * Manager-wide scheduling settings, the counterpart of Kueue's Configuration: fair sharing and its
 * preemption strategies, objectRetentionPolicies.workloads.afterFinished (null keeps finished
 * workloads forever), and the manager's scheduling batch window: how long after a change the pass
 * that decides it starts, so that changes arriving together (a submission and the finishes that make
 * room for it) are decided together (zero decides each change at once, before its write is answered).
 */
public record SchedulerOptions(boolean fairSharing,
                               List<FairSharingStrategy> preemptionStrategies,
                               Duration retainFinishedWorkloadsFor,
                               Duration schedulingBatchWindow,
                               DeactivatedRetention deactivatedRetention) {
    /** Long enough for events a few milliseconds apart, short enough not to be noticed by a submitter. */
    public static final Duration DEFAULT_BATCH_WINDOW = Duration.ofMillis(10);

    public static final SchedulerOptions DEFAULTS = new SchedulerOptions(false,
            List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
            null, DEFAULT_BATCH_WINDOW, DeactivatedRetention.FOREVER);

    public SchedulerOptions {
        preemptionStrategies = List.copyOf(preemptionStrategies);
        if (deactivatedRetention == null) deactivatedRetention = DeactivatedRetention.FOREVER;
        if (schedulingBatchWindow == null || schedulingBatchWindow.isNegative()) {
            throw new IllegalArgumentException("schedulingBatchWindow must be zero or positive");
        }
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, DeactivatedRetention.FOREVER);
    }

    /** Kueue's objectRetentionPolicies.workloads.afterDeactivatedByKueue; null keeps such workloads forever. */
    public SchedulerOptions withRetainDeactivatedFor(Duration afterDeactivatedByKueue) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow,
                new DeactivatedRetention(afterDeactivatedByKueue));
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
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, DEFAULT_BATCH_WINDOW);
    }

    public enum FairSharingStrategy {
        LESS_THAN_OR_EQUAL_TO_FINAL_SHARE("LessThanOrEqualToFinalShare"),
        LESS_THAN_INITIAL_SHARE("LessThanInitialShare");

        private final String wireName;

        FairSharingStrategy(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
