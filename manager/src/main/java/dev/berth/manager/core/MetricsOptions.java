package dev.berth.manager.core;

/**
 * Which of Kueue's optional metric series the manager serves. {@code localQueueMetrics} is Kueue's
 * {@code LocalQueueMetrics} feature gate (the {@code kueue_local_queue_*} series, off by default as in
 * Kueue). {@code clusterQueueResources} is Kueue's {@code metrics.enableClusterQueueResources} (the
 * per-flavor quota and usage gauges and {@code kueue_cluster_queue_weighted_share}); Berth has always
 * served those and keeps them on by default, where Kueue defaults to off.
 */
public record MetricsOptions(boolean localQueueMetrics, boolean clusterQueueResources) {
    public static final MetricsOptions DEFAULTS = new MetricsOptions(false, true);
}
