package dev.berth.manager.core;

import java.time.Duration;
import java.util.Map;

/**
 * Kueue's Configuration admissionFairSharing: how fast a LocalQueue's consumed resources decay
 * (usageHalfLifeTime; zero keeps no history), how often they are sampled (usageSamplingInterval,
 * Kueue's default 5 minutes) and the weight of each resource in the LocalQueue's usage (resourceWeights,
 * 1 for a resource not named). It applies to ClusterQueues whose admissionScope.admissionMode is
 * UsageBasedAdmissionFairSharing; a null record in {@link SchedulerOptions} turns it off.
 */
public record AdmissionFairSharing(Duration usageHalfLifeTime, Duration usageSamplingInterval, Map<String, Double> resourceWeights) {
    public static final Duration DEFAULT_SAMPLING_INTERVAL = Duration.ofMinutes(5);

    public AdmissionFairSharing {
        if (usageHalfLifeTime == null) usageHalfLifeTime = Duration.ZERO;
        if (usageSamplingInterval == null || usageSamplingInterval.isZero()) usageSamplingInterval = DEFAULT_SAMPLING_INTERVAL;
        if (usageHalfLifeTime.isNegative() || usageSamplingInterval.isNegative()) {
            throw new IllegalArgumentException("admissionFairSharing durations must not be negative");
        }
        resourceWeights = resourceWeights == null ? Map.of() : Map.copyOf(resourceWeights);
    }

    /** Kueue's calculateAlphaRate: the share of new usage after {@code elapsed}, 1 - 0.5^(elapsed / halfLife); 0 without a half-life. */
    double alpha(Duration elapsed) {
        if (usageHalfLifeTime.isZero()) return 0;
        return 1 - Math.pow(0.5, seconds(elapsed) / seconds(usageHalfLifeTime));
    }

    double weightOf(String resource) {
        return resourceWeights.getOrDefault(resource, 1.0);
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
