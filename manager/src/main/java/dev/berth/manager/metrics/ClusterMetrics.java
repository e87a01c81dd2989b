package dev.berth.manager.metrics;

import dev.berth.manager.dispatch.ClusterHealth;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Berth's worker-cluster metrics: health (one of {@link ClusterState}, as 0/1), the free capacity the
 * agents report, dispatch counts and latency, failovers and lease expiries.
 */
final class ClusterMetrics implements DispatchListener {
    /**
     * A cluster's state for {@code berth_cluster_health}: its ClusterHealthPolicy health (the same as
     * the MultiKueueCluster's berth.dev/Healthy condition and the clusters view), except that a cordoned
     * or draining cluster that is not lost shows as cordoned. A view not assessed yet counts as
     * degraded when connected, else unreachable.
     */
    enum ClusterState {
        UNREACHABLE, AGENT_LOST, CORDONED, DEGRADED, HEALTHY;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static ClusterState of(ClusterView view) {
            ClusterHealth health = view.health() != null ? view.health()
                    : view.connected() ? ClusterHealth.DEGRADED : ClusterHealth.UNREACHABLE;
            return switch (health) {
                case UNREACHABLE -> UNREACHABLE;
                case AGENT_LOST -> AGENT_LOST;
                case DEGRADED -> view.cordoned() ? CORDONED : DEGRADED;
                case HEALTHY -> view.cordoned() ? CORDONED : HEALTHY;
            };
        }
    }

    private final MeterRegistry registry;
    private final MultiGauge health;
    private final MultiGauge freeCapacity;

    ClusterMetrics(MeterRegistry registry) {
        this.registry = registry;
        health = MultiGauge.builder(MetricNames.CLUSTER_HEALTH)
                .description("Reports each worker 'cluster' with its 'state' (healthy, degraded, cordoned, agent_lost, unreachable); 1 for exactly one state")
                .register(registry);
        freeCapacity = MultiGauge.builder(MetricNames.CLUSTER_FREE_CAPACITY)
                .description("Free capacity per worker 'cluster', 'flavor' and 'resource' as its agent last reported it (cpu in cores)")
                .register(registry);
    }

    void update(List<ClusterView> views) {
        List<MultiGauge.Row<?>> healthRows = new ArrayList<>();
        List<MultiGauge.Row<?>> capacityRows = new ArrayList<>();
        for (ClusterView view : views) {
            ClusterState state = ClusterState.of(view);
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

    @Override
    public void failedOver(String clusterQueue, String fromCluster) {
        failover(clusterQueue, fromCluster);
    }

    @Override
    public void leaseExpired(String cluster) {
        Counter.builder(MetricNames.LEASE_EXPIRIES)
                .description("The number of dispatch leases that expired, per worker 'cluster'")
                .tag(Label.CLUSTER, cluster).register(registry).increment();
    }

    void failover(String clusterQueue, String fromCluster) {
        Counter.builder(MetricNames.FAILOVERS)
                .description("The number of workloads moved off a worker cluster, per 'cluster_queue' and 'from_cluster'")
                .tag(Label.CLUSTER_QUEUE, clusterQueue).tag(Label.FROM_CLUSTER, fromCluster).register(registry).increment();
    }

}
