package dev.berth.manager.metrics;

import dev.berth.manager.core.AdmissionListener;
import dev.berth.protocol.MetricNames;
import dev.berth.protocol.MetricNames.Label;
import dev.berth.protocol.MetricNames.Values;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * Kueue's scheduler counters and wait-time histograms, fed by the admission controller's
 * transitions. Called on the state thread only; meters are cached per ClusterQueue so an event costs
 * a map lookup and an increment.
 */
final class KueueAdmissionMetrics implements AdmissionListener {
    private final MeterRegistry registry;
    private final Counter attemptsSuccess;
    private final Counter attemptsInadmissible;
    private final DistributionSummary attemptSuccessSeconds;
    private final DistributionSummary attemptInadmissibleSeconds;
    private final Map<String, QueueMeters> byQueue = new HashMap<>();

    /** The meters of one ClusterQueue that move with every admission. */
    private record QueueMeters(Counter quotaReserved, DistributionSummary quotaReservedWait,
                               Counter admitted, DistributionSummary admissionWait, DistributionSummary checksWait) {}

    KueueAdmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
        attemptsSuccess = attempts(Values.RESULT_SUCCESS);
        attemptsInadmissible = attempts(Values.RESULT_INADMISSIBLE);
        attemptSuccessSeconds = attemptDuration(Values.RESULT_SUCCESS);
        attemptInadmissibleSeconds = attemptDuration(Values.RESULT_INADMISSIBLE);
    }

    private Counter attempts(String result) {
        return Counter.builder(MetricNames.ADMISSION_ATTEMPTS)
                .description("The total number of attempts to admit workloads, by result (success: at least one workload admitted)")
                .tag(Label.RESULT, result).register(registry);
    }

    private DistributionSummary attemptDuration(String result) {
        return seconds(MetricNames.ADMISSION_ATTEMPT_DURATION, "The latency of an admission attempt, by result",
                KueueBuckets.ATTEMPT_DURATION).tag(Label.RESULT, result).register(registry);
    }

    private static DistributionSummary.Builder seconds(String name, String description, double[] buckets) {
        return DistributionSummary.builder(name).baseUnit("seconds").description(description).serviceLevelObjectives(buckets);
    }

    private QueueMeters meters(String clusterQueue) {
        QueueMeters meters = byQueue.get(clusterQueue);
        if (meters != null) return meters;
        meters = new QueueMeters(
                Counter.builder(MetricNames.QUOTA_RESERVED_WORKLOADS)
                        .description("The total number of quota reserved workloads per 'cluster_queue'")
                        .tag(Label.CLUSTER_QUEUE, clusterQueue).register(registry),
                seconds(MetricNames.QUOTA_RESERVED_WAIT_TIME,
                        "The time between a workload was created or requeued until it got quota reservation, per 'cluster_queue'",
                        KueueBuckets.WAIT_TIME).tag(Label.CLUSTER_QUEUE, clusterQueue).register(registry),
                Counter.builder(MetricNames.ADMITTED_WORKLOADS)
                        .description("The total number of admitted workloads per 'cluster_queue'")
                        .tag(Label.CLUSTER_QUEUE, clusterQueue).register(registry),
                seconds(MetricNames.ADMISSION_WAIT_TIME,
                        "The time between a workload was created or requeued until admission, per 'cluster_queue'",
                        KueueBuckets.WAIT_TIME).tag(Label.CLUSTER_QUEUE, clusterQueue).register(registry),
                seconds(MetricNames.ADMISSION_CHECKS_WAIT_TIME,
                        "The time from when a workload got the quota reservation until admission, per 'cluster_queue'",
                        KueueBuckets.WAIT_TIME).tag(Label.CLUSTER_QUEUE, clusterQueue).register(registry));
        byQueue.put(clusterQueue, meters);
        return meters;
    }

    @Override
    public long attemptStarting() {
        return System.nanoTime();
    }

    @Override
    public void attempt(boolean success, long startToken) {
        double seconds = (System.nanoTime() - startToken) / 1e9;
        if (success) {
            attemptsSuccess.increment();
            attemptSuccessSeconds.record(seconds);
        } else {
            attemptsInadmissible.increment();
            attemptInadmissibleSeconds.record(seconds);
        }
    }

    @Override
    public void quotaReserved(String clusterQueue, long waitedMillis) {
        QueueMeters meters = meters(clusterQueue);
        meters.quotaReserved.increment();
        meters.quotaReservedWait.record(waitedMillis / 1000.0);
    }

    @Override
    public void admitted(String clusterQueue, long waitedMillis, long checksMillis) {
        QueueMeters meters = meters(clusterQueue);
        meters.admitted.increment();
        meters.admissionWait.record(waitedMillis / 1000.0);
        if (checksMillis >= 0) meters.checksWait.record(checksMillis / 1000.0);
    }

    @Override
    public void evicted(String clusterQueue, String reason) {
        if (clusterQueue == null) return;
        Counter.builder(MetricNames.EVICTED_WORKLOADS)
                .description("The number of evicted workloads per 'cluster_queue' and 'reason'")
                .tag(Label.CLUSTER_QUEUE, clusterQueue).tag(Label.REASON, reason).register(registry).increment();
    }

    @Override
    public void preempted(String preemptingClusterQueue, String reason) {
        if (preemptingClusterQueue == null) return;
        Counter.builder(MetricNames.PREEMPTED_WORKLOADS)
                .description("The number of preempted workloads per 'preempting_cluster_queue' and 'reason'")
                .tag(Label.PREEMPTING_CLUSTER_QUEUE, preemptingClusterQueue).tag(Label.REASON, reason)
                .register(registry).increment();
    }
}
