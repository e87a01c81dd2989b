package dev.berth.manager.metrics;

import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchListener;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.protocol.MetricNames;
import dev.berth.protocol.MetricNames.Label;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Berth's worker-cluster metrics: health (one of {@link ClusterState}, as 0/1), the free capacity the
 * agents report, dispatch counts and latency, failovers and lease expiries.
 */
final class ClusterMetrics implements DispatchListener {
    /** A cluster's health for {@code berth_cluster_health}; the first that applies wins. */
    enum ClusterState {
        UNREACHABLE, STALE, CORDONED, HEALTHY;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static ClusterState of(ClusterView view, Instant now, Duration staleAfter) {
            if (!view.connected()) return UNREACHABLE;
            if (view.lastHeartbeat() == null || view.lastHeartbeat().plus(staleAfter).isBefore(now)) return STALE;
            if (view.cordoned()) return CORDONED;
            return HEALTHY;
        }
    }

    private final MeterRegistry registry;
    private final MultiGauge health;
    private final MultiGauge freeCapacity;

    ClusterMetrics(MeterRegistry registry) {
        this.registry = registry;
        health = MultiGauge.builder(MetricNames.CLUSTER_HEALTH)
                .description("Reports each worker 'cluster' with its 'state' (healthy, cordoned, stale heartbeat, unreachable); 1 for exactly one state")
                .register(registry);
        freeCapacity = MultiGauge.builder(MetricNames.CLUSTER_FREE_CAPACITY)
                .description("Free capacity per worker 'cluster', 'flavor' and 'resource' as its agent last reported it (cpu in cores)")
                .register(registry);
    }

    void update(List<ClusterView> views, Instant now, Duration staleAfter) {
        List<MultiGauge.Row<?>> healthRows = new ArrayList<>();
        List<MultiGauge.Row<?>> capacityRows = new ArrayList<>();
        for (ClusterView view : views) {
            ClusterState state = ClusterState.of(view, now, staleAfter);
            for (ClusterState candidate : ClusterState.values()) {
                healthRows.add(MultiGauge.Row.of(Tags.of(Label.CLUSTER, view.name(), Label.STATE, candidate.label()),
                        candidate == state ? 1 : 0));
            }
            for (FlavorCapacity flavor : view.flavors().values()) {
                for (Map.Entry<String, Long> free : flavor.free().entrySet()) {
                    capacityRows.add(MultiGauge.Row.of(Tags.of(Label.CLUSTER, view.name(), Label.FLAVOR, flavor.flavor(),
                            Label.RESOURCE, free.getKey()), ResourceAmount.of(free.getKey(), free.getValue())));
                }
            }
        }
        health.register(healthRows, true);
        freeCapacity.register(capacityRows, true);
    }

    @Override
    public void dispatched(String clusterQueue, List<String> clusters) {
        for (String cluster : clusters) {
            Counter.builder(MetricNames.MULTIKUEUE_WORKLOADS_DISPATCHED)
                    .description("The number of workload attempts dispatched per 'cluster_queue' and worker 'cluster'")
                    .tag(Label.CLUSTER_QUEUE, clusterQueue).tag(Label.CLUSTER, cluster).register(registry).increment();
        }
    }

    @Override
    public void firstReport(String cluster, Duration sinceDispatch) {
        DistributionSummary.builder(MetricNames.DISPATCH_LATENCY).baseUnit("seconds")
                .description("The time from dispatching an attempt until its cluster's agent first reports it admitted or running")
                .serviceLevelObjectives(KueueBuckets.DISPATCH_LATENCY).tag(Label.CLUSTER, cluster)
                .register(registry).record(sinceDispatch.toNanos() / 1e9);
    }

    void failover(String clusterQueue, String fromCluster) {
        Counter.builder(MetricNames.FAILOVERS)
                .description("The number of workloads moved off a worker cluster, per 'cluster_queue' and 'from_cluster'")
                .tag(Label.CLUSTER_QUEUE, clusterQueue).tag(Label.FROM_CLUSTER, fromCluster).register(registry).increment();
    }

    void leaseExpired(String cluster) {
        Counter.builder(MetricNames.LEASE_EXPIRIES)
                .description("The number of dispatch leases that expired, per worker 'cluster'")
                .tag(Label.CLUSTER, cluster).register(registry).increment();
    }
}
