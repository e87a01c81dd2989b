package dev.berth.manager.core;

import java.time.Duration;
import java.util.List;

/**
 * Manager-wide scheduling settings, the counterpart of Kueue's Configuration: fair sharing and its
 * preemption strategies, and objectRetentionPolicies.workloads.afterFinished (null keeps finished
 * workloads forever).
 */
public record SchedulerOptions(boolean fairSharing,
                               List<FairSharingStrategy> preemptionStrategies,
                               Duration retainFinishedWorkloadsFor) {
    public static final SchedulerOptions DEFAULTS = new SchedulerOptions(false,
            List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
            null);

    public SchedulerOptions {
        preemptionStrategies = List.copyOf(preemptionStrategies);
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
