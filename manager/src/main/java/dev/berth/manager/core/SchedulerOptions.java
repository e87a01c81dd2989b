package dev.berth.manager.core;

import java.time.Duration;
import java.util.List;

/**
 * Manager-wide scheduling settings, the counterpart of Kueue's Configuration: fair sharing and its
 * preemption strategies, objectRetentionPolicies.workloads.afterFinished (null keeps finished
 * workloads forever), and the manager's scheduling batch window: how long after a change the pass
 * that decides it starts, so that changes arriving together (a submission and the finishes that make
 * room for it) are decided together (zero decides each change at once, before its write is answered);
 * and waitForPodsReady ({@link PodsReadyPolicy}, off by default), and which of Kueue's optional
 * metric series are served ({@link MetricsOptions}).
 */
public record SchedulerOptions(boolean fairSharing,
                               List<FairSharingStrategy> preemptionStrategies,
                               Duration retainFinishedWorkloadsFor,
                               Duration schedulingBatchWindow,
                               PodsReadyPolicy waitForPodsReady,
                               MetricsOptions metrics) {
    /** Long enough for events a few milliseconds apart, short enough not to be noticed by a submitter. */
    public static final Duration DEFAULT_BATCH_WINDOW = Duration.ofMillis(10);

    public static final SchedulerOptions DEFAULTS = new SchedulerOptions(false,
            List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
            null, DEFAULT_BATCH_WINDOW, PodsReadyPolicy.DISABLED);

    public SchedulerOptions {
        preemptionStrategies = List.copyOf(preemptionStrategies);
        if (schedulingBatchWindow == null || schedulingBatchWindow.isNegative()) {
            throw new IllegalArgumentException("schedulingBatchWindow must be zero or positive");
        }
        if (waitForPodsReady == null) waitForPodsReady = PodsReadyPolicy.DISABLED;
        if (metrics == null) metrics = MetricsOptions.DEFAULTS;
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow, PodsReadyPolicy waitForPodsReady) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, waitForPodsReady, MetricsOptions.DEFAULTS);
    }

    /** The same options serving the given optional metric series. */
    public SchedulerOptions withMetrics(MetricsOptions options) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, waitForPodsReady, options);
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor,
                            Duration schedulingBatchWindow) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, PodsReadyPolicy.DISABLED);
    }

    /** The same options with waitForPodsReady set. */
    public SchedulerOptions withWaitForPodsReady(PodsReadyPolicy policy) {
        return new SchedulerOptions(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, schedulingBatchWindow, policy, metrics);
    }

    public SchedulerOptions(boolean fairSharing, List<FairSharingStrategy> preemptionStrategies, Duration retainFinishedWorkloadsFor) {
        this(fairSharing, preemptionStrategies, retainFinishedWorkloadsFor, DEFAULT_BATCH_WINDOW, PodsReadyPolicy.DISABLED);
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
