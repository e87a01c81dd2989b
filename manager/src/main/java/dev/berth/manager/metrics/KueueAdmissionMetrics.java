package dev.berth.manager.metrics;

import dev.berth.manager.core.AdmissionListener;
import dev.berth.manager.core.WorkloadMetricLabels;
import dev.berth.protocol.MetricNames;
import dev.berth.protocol.MetricNames.Label;
import dev.berth.protocol.MetricNames.Values;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
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
    /** Per ClusterQueue and priority class, and per LocalQueue and priority class. */
    private final Map<String, QueueMeters> byQueue = new HashMap<>();
    private final Map<String, QueueMeters> byLocalQueue = new HashMap<>();
    private final boolean localQueueMetrics;

    /** The meters of one ClusterQueue that move with every admission. */
    private record QueueMeters(Counter quotaReserved, DistributionSummary quotaReservedWait,
                               Counter admitted, DistributionSummary admissionWait, DistributionSummary checksWait) {}

    KueueAdmissionMetrics(MeterRegistry registry, boolean localQueueMetrics) {
        this.registry = registry;
        this.localQueueMetrics = localQueueMetrics;
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

    private QueueMeters meters(String clusterQueue, String priorityClass) {
        String key = clusterQueue + "\n" + priorityClass;
        QueueMeters meters = byQueue.get(key);
        if (meters != null) return meters;
        Tags tags = Tags.of(Label.CLUSTER_QUEUE, clusterQueue, Label.PRIORITY_CLASS, priorityClass);
        meters = new QueueMeters(
                Counter.builder(MetricNames.QUOTA_RESERVED_WORKLOADS)
                        .description("The total number of quota reserved workloads per 'cluster_queue'").tags(tags).register(registry),
                seconds(MetricNames.QUOTA_RESERVED_WAIT_TIME,
                        "The time between a workload was created or requeued until it got quota reservation, per 'cluster_queue'",
                        KueueBuckets.WAIT_TIME).tags(tags).register(registry),
                Counter.builder(MetricNames.ADMITTED_WORKLOADS)
                        .description("The total number of admitted workloads per 'cluster_queue'").tags(tags).register(registry),
                seconds(MetricNames.ADMISSION_WAIT_TIME,
                        "The time between a workload was created or requeued until admission, per 'cluster_queue'",
                        KueueBuckets.ADMISSION_WAIT_TIME).tags(tags).register(registry),
                seconds(MetricNames.ADMISSION_CHECKS_WAIT_TIME,
                        "The time from when a workload got the quota reservation until admission, per 'cluster_queue'",
                        KueueBuckets.WAIT_TIME).tags(tags).register(registry));
        byQueue.put(key, meters);
        return meters;
    }

    /** The same meters for a LocalQueue (Kueue's kueue_local_queue_* series); null when those are not served. */
    private QueueMeters localMeters(WorkloadMetricLabels workload) {
        if (!localQueueMetrics || workload.localQueue() == null) return null;
        String key = workload.namespace() + "/" + workload.localQueue() + "\n" + workload.priorityClass();
        QueueMeters meters = byLocalQueue.get(key);
        if (meters != null) return meters;
        Tags tags = localQueueTags(workload);
        meters = new QueueMeters(
                Counter.builder(MetricNames.LOCAL_QUEUE_QUOTA_RESERVED_WORKLOADS)
                        .description("The total number of quota reserved workloads per 'local_queue'").tags(tags).register(registry),
                seconds(MetricNames.LOCAL_QUEUE_QUOTA_RESERVED_WAIT_TIME,
                        "The time between a workload was created or requeued until it got quota reservation, per 'local_queue'",
                        KueueBuckets.WAIT_TIME).tags(tags).register(registry),
                Counter.builder(MetricNames.LOCAL_QUEUE_ADMITTED_WORKLOADS)
                        .description("The total number of admitted workloads per 'local_queue'").tags(tags).register(registry),
                seconds(MetricNames.LOCAL_QUEUE_ADMISSION_WAIT_TIME,
                        "The time between a workload was created or requeued until admission, per 'local_queue'",
                        KueueBuckets.WAIT_TIME).tags(tags).register(registry),
                seconds(MetricNames.LOCAL_QUEUE_ADMISSION_CHECKS_WAIT_TIME,
                        "The time from when a workload got the quota reservation until admission, per 'local_queue'",
                        KueueBuckets.WAIT_TIME).tags(tags).register(registry));
        byLocalQueue.put(key, meters);
        return meters;
    }

    private static Tags localQueueTags(WorkloadMetricLabels workload) {
        return Tags.of(Label.NAME, workload.localQueue(), Label.NAMESPACE, workload.namespace(),
                Label.PRIORITY_CLASS, workload.priorityClass());
    }

    private static WorkloadMetricLabels queueOnly(String clusterQueue) {
        return new WorkloadMetricLabels(clusterQueue, null, null, "");
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
        quotaReserved(queueOnly(clusterQueue), waitedMillis);
    }

    @Override
    public void quotaReserved(WorkloadMetricLabels workload, long waitedMillis) {
        for (QueueMeters meters : new QueueMeters[] {meters(workload.clusterQueue(), workload.priorityClass()), localMeters(workload)}) {
            if (meters == null) continue;
            meters.quotaReserved.increment();
            meters.quotaReservedWait.record(waitedMillis / 1000.0);
        }
    }

    @Override
    public void admitted(String clusterQueue, long waitedMillis, long checksMillis) {
        admitted(queueOnly(clusterQueue), waitedMillis, checksMillis);
    }

    @Override
    public void admitted(WorkloadMetricLabels workload, long waitedMillis, long checksMillis) {
        for (QueueMeters meters : new QueueMeters[] {meters(workload.clusterQueue(), workload.priorityClass()), localMeters(workload)}) {
            if (meters == null) continue;
            meters.admitted.increment();
            meters.admissionWait.record(waitedMillis / 1000.0);
            if (checksMillis >= 0) meters.checksWait.record(checksMillis / 1000.0);
        }
    }

    @Override
    public void evicted(String clusterQueue, String reason) {
        evicted(queueOnly(clusterQueue), reason, "");
    }

    @Override
    public void evicted(WorkloadMetricLabels workload, String reason, String underlyingCause) {
        if (workload.clusterQueue() == null) return;
        String cause = underlyingCause == null ? "" : underlyingCause;
        Counter.builder(MetricNames.EVICTED_WORKLOADS)
                .description("The number of evicted workloads per 'cluster_queue', 'reason' and 'underlying_cause'")
                .tags(Tags.of(Label.CLUSTER_QUEUE, workload.clusterQueue(), Label.REASON, reason, Label.UNDERLYING_CAUSE, cause,
                        Label.PRIORITY_CLASS, workload.priorityClass()))
                .register(registry).increment();
        if (localQueueMetrics && workload.localQueue() != null) {
            Counter.builder(MetricNames.LOCAL_QUEUE_EVICTED_WORKLOADS)
                    .description("The number of evicted workloads per 'local_queue', 'reason' and 'underlying_cause'")
                    .tags(localQueueTags(workload).and(Label.REASON, reason, Label.UNDERLYING_CAUSE, cause))
                    .register(registry).increment();
        }
    }

    @Override
    public void finished(WorkloadMetricLabels workload) {
        Counter.builder(MetricNames.FINISHED_WORKLOADS_TOTAL).description("The total number of finished workloads per 'cluster_queue'")
                .tags(Tags.of(Label.CLUSTER_QUEUE, workload.clusterQueue(), Label.PRIORITY_CLASS, workload.priorityClass()))
                .register(registry).increment();
        if (localQueueMetrics && workload.localQueue() != null) {
            Counter.builder(MetricNames.LOCAL_QUEUE_FINISHED_WORKLOADS_TOTAL).description("The total number of finished workloads per 'local_queue'")
                    .tags(localQueueTags(workload)).register(registry).increment();
        }
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
