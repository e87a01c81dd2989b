package dev.berth.manager.metrics;

import dev.berth.manager.core.AdmissionListener;
import dev.berth.manager.core.MetricsOptions;
import dev.berth.manager.core.QueueMetrics;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchListener;
import dev.berth.protocol.MetricNames;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;

/**
 * The manager's metrics: one Prometheus registry holding Kueue's metrics (same names and labels)
 * and Berth's own. Counters and histograms move with the controller's and the dispatcher's events
 * ({@link #admissionListener()}, {@link #dispatchListener()}); gauges are refreshed from snapshots
 * taken on the state thread just before each scrape ({@link #refresh}).
 */
public final class BerthMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final KueueAdmissionMetrics admission;
    private final KueueQueueGauges queues;
    /** Null unless Kueue's LocalQueueMetrics series are served. */
    private final KueueLocalQueueGauges localQueues;
    private final ClusterMetrics clusters = new ClusterMetrics(registry);
    private final DistributionSummary stateThreadQueue = DistributionSummary.builder(MetricNames.STATE_THREAD_QUEUE_DURATION)
            .baseUnit("seconds").description("How long a task waited for the manager's state thread")
            .serviceLevelObjectives(KueueBuckets.STATE_THREAD).register(registry);
    private final DistributionSummary stateThreadWork = DistributionSummary.builder(MetricNames.STATE_THREAD_WORK_DURATION)
            .baseUnit("seconds").description("How long a task ran on the manager's state thread (a scheduling slice, a group of API requests)")
            .serviceLevelObjectives(KueueBuckets.STATE_THREAD).register(registry);

    /** Kueue's default series, fair sharing off. */
    public BerthMetrics() {
        this(MetricsOptions.DEFAULTS, false);
    }

    /** The optional series {@code options} asks for; the weighted-share gauges only when fair sharing is on (as in Kueue). */
    public BerthMetrics(MetricsOptions options, boolean fairSharing) {
        admission = new KueueAdmissionMetrics(registry, options.localQueueMetrics());
        queues = new KueueQueueGauges(registry, options, fairSharing);
        localQueues = options.localQueueMetrics() ? new KueueLocalQueueGauges(registry) : null;
    }

    /** The registry, for other binders (resilience4j's TaggedCircuitBreakerMetrics, Vert.x metrics). */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Feeds Kueue's admission counters and wait-time histograms; call it on the state thread only. */
    public AdmissionListener admissionListener() {
        return admission;
    }

    /** Feeds multikueue_workloads_dispatched_total and berth_dispatch_latency_seconds; state thread only. */
    public DispatchListener dispatchListener() {
        return clusters;
    }

    /** A state-thread task ended: it waited {@code queuedNanos} for the thread and ran {@code ranNanos}. */
    public void stateThreadTask(long queuedNanos, long ranNanos) {
        stateThreadQueue.record(queuedNanos / 1e9);
        stateThreadWork.record(ranNanos / 1e9);
    }

    /** A workload left a worker cluster for another (berth_failovers_total). */
    public void failover(String clusterQueue, String fromCluster) {
        clusters.failover(clusterQueue, fromCluster);
    }

    /** A dispatch lease on a worker cluster expired (berth_lease_expiries_total). */
    public void leaseExpired(String cluster) {
        clusters.leaseExpired(cluster);
    }

    /** Replaces the gauges with what the state thread sees now. */
    public void refresh(QueueMetrics queueMetrics, List<ClusterView> clusterViews) {
        queues.update(queueMetrics);
        if (localQueues != null) localQueues.update(queueMetrics);
        clusters.update(clusterViews);
    }

    /** The Prometheus text exposition (format 0.0.4) of every meter. */
    public String scrape() {
        return registry.scrape();
    }
}
