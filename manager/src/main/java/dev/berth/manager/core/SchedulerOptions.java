package dev.berth.manager.core;

import dev.berth.manager.scheduling.FairSharingSettings;
import dev.berth.manager.scheduling.FairSharingStrategy;
import java.time.Duration;
import java.util.List;

/**
 * Manager-wide scheduling settings, the counterpart of Kueue's Configuration: fair sharing and its
 * preemption strategies, objectRetentionPolicies.workloads.afterFinished (null keeps finished
 * workloads forever) and afterDeactivatedByKueue ({@link DeactivatedRetention}), the manager's
 * scheduling batch window (how long after a change the pass that decides it starts, so that changes
 * arriving together, a submission and the finishes that make room for it, are decided together; zero
 * decides each change at once, before its write is answered), waitForPodsReady ({@link PodsReadyPolicy},
 * off by default), admissionFairSharing (null: off) and which of Kueue's optional metric series are
 * served ({@link MetricsOptions}).
 */
public record SchedulerOptions(boolean fairSharing,
                               List<FairSharingStrategy> preemptionStrategies,
                               Duration retainFinishedWorkloadsFor,
                               Duration schedulingBatchWindow,
                               PodsReadyPolicy waitForPodsReady,
                               AdmissionFairSharing admissionFairSharing,
                               DeactivatedRetention deactivatedRetention,
                               MetricsOptions metrics) implements FairSharingSettings {
    /** Long enough for events a few milliseconds apart, short enough not to be noticed by a submitter. */
    public static final Duration DEFAULT_BATCH_WINDOW = Duration.ofMillis(10);

    public static final SchedulerOptions DEFAULTS = new SchedulerOptions(false,
            List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
            null, DEFAULT_BATCH_WINDOW);

    public SchedulerOptions {
        preemptionStrategies = List.copyOf(preemptionStrategies);
        if (schedulingBatchWindow == null || schedulingBatchWindow.isNegative()) {
            throw new IllegalArgumentException("schedulingBatchWindow must be zero or positive");
        }
        if (waitForPodsReady == null) waitForPodsReady = PodsReadyPolicy.DISABLED;
        if (deactivatedRetention == null) deactivatedRetention = DeactivatedRetention.FOREVER;
        if (metrics == null) metrics = MetricsOptions.DEFAULTS;
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, DEFAULT_BATCH_WINDOW);
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, PodsReadyPolicy.DISABLED);
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow, PodsReadyPolicy waitForPodsReady) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, waitForPodsReady, null,
                DeactivatedRetention.FOREVER, MetricsOptions.DEFAULTS);
    }

    /** The same options with waitForPodsReady set. */
    public SchedulerOptions withWaitForPodsReady(PodsReadyPolicy policy) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, policy,
                admissionFairSharing, deactivatedRetention, metrics);
    }

    /** These options with Kueue's admissionFairSharing (null turns it off). */
    public SchedulerOptions withAdmissionFairSharing(AdmissionFairSharing settings) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, waitForPodsReady,
                settings, deactivatedRetention, metrics);
    }

    /** Kueue's objectRetentionPolicies.workloads.afterDeactivatedByKueue; null keeps such workloads forever. */
    public SchedulerOptions withRetainDeactivatedFor(Duration afterDeactivatedByKueue) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow,
                waitForPodsReady, admissionFairSharing, new DeactivatedRetention(afterDeactivatedByKueue), metrics);
    }

    /** The same options serving the given optional metric series. */
    public SchedulerOptions withMetrics(MetricsOptions options) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow,
                waitForPodsReady, admissionFairSharing, deactivatedRetention, options);
    }
}
