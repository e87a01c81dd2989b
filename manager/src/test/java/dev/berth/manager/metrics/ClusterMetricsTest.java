package dev.berth.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.BreakerState;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.core.QueueMetrics;
import dev.berth.protocol.MetricNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Berth's own worker-cluster metrics: health as one-hot states, reported free capacity, dispatches. */
class ClusterMetricsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Duration STALE_AFTER = Duration.ofSeconds(30);
    private final BerthMetrics metrics = new BerthMetrics();

    private PrometheusText refresh(ClusterView... views) {
        metrics.refresh(new QueueMetrics(List.of()), List.of(views));
        return new PrometheusText(metrics.scrape());
    }

    private static ClusterView view(String name, boolean connected, boolean cordoned, Instant heartbeat) {
        return view(name, connected, cordoned, heartbeat, connected ? ClusterHealth.HEALTHY : ClusterHealth.UNREACHABLE);
    }

    private static ClusterView view(String name, boolean connected, boolean cordoned, Instant heartbeat, ClusterHealth health) {
        return new ClusterView(name, connected, cordoned, heartbeat, Map.of("a100",
                new FlavorCapacity("a100", Map.of("nvidia.com/gpu", 6L, "cpu", 1500L), Map.of("nvidia.com/gpu", 4L))), health,
                BreakerState.CLOSED);
    }

    @Test
    void eachClusterHasExactlyOneHealthStateTheHealthPolicys() {
        PrometheusText scrape = refresh(
                view("fresh", true, false, NOW.minusSeconds(2)),
                view("drained", true, true, NOW.minusSeconds(2)),
                view("late", true, false, NOW.minusSeconds(20), ClusterHealth.DEGRADED),
                view("silent", true, false, NOW.minusSeconds(120), ClusterHealth.AGENT_LOST),
                view("silent-cordoned", true, true, NOW.minusSeconds(120), ClusterHealth.AGENT_LOST),
                view("gone", false, false, null));
        assertThat(state(scrape, "fresh")).isEqualTo("healthy");
        assertThat(state(scrape, "drained")).isEqualTo("cordoned");
        assertThat(state(scrape, "late")).isEqualTo("degraded");
        assertThat(state(scrape, "silent")).isEqualTo("agent_lost");
        assertThat(state(scrape, "silent-cordoned")).as("lost wins over cordoned").isEqualTo("agent_lost");
        assertThat(state(scrape, "gone")).isEqualTo("unreachable");
        assertThat(scrape.family(MetricNames.CLUSTER_HEALTH)).hasSize(30);
    }

    private static String state(PrometheusText scrape, String cluster) {
        String found = null;
        for (String state : List.of("healthy", "degraded", "cordoned", "agent_lost", "unreachable")) {
            Double value = scrape.value(MetricNames.CLUSTER_HEALTH, "cluster", cluster, "state", state);
            if (value != null && value == 1.0) {
                assertThat(found).as("two states for %s", cluster).isNull();
                found = state;
            }
        }
        return found;
    }

    @Test
    void freeCapacityIsReportedPerFlavorAndResourceWithCpuInCores() {
        PrometheusText scrape = refresh(view("east", true, false, NOW));
        assertThat(scrape.value(MetricNames.CLUSTER_FREE_CAPACITY, "cluster", "east", "flavor", "a100", "resource", "nvidia.com/gpu"))
                .isEqualTo(6.0);
        assertThat(scrape.value(MetricNames.CLUSTER_FREE_CAPACITY, "cluster", "east", "flavor", "a100", "resource", "cpu"))
                .isEqualTo(1.5);
        PrometheusText afterRemoval = refresh();
        assertThat(afterRemoval.family(MetricNames.CLUSTER_FREE_CAPACITY)).isEmpty();
        assertThat(afterRemoval.family(MetricNames.CLUSTER_HEALTH)).isEmpty();
    }

    @Test
    void dispatchesFailoversAndLeaseExpiriesAreCounted() {
        metrics.dispatchListener().dispatched("team-a-cq", List.of("east", "west"));
        metrics.dispatchListener().firstReport("east", Duration.ofMillis(700));
        metrics.failover("team-a-cq", "west");
        metrics.leaseExpired("west");
        PrometheusText scrape = new PrometheusText(metrics.scrape());
        assertThat(scrape.value(MetricNames.MULTIKUEUE_WORKLOADS_DISPATCHED, "cluster_queue", "team-a-cq", "cluster", "west")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.DISPATCH_LATENCY + "_bucket", "cluster", "east", "le", "0.5")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.DISPATCH_LATENCY + "_bucket", "cluster", "east", "le", "1.0")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.FAILOVERS, "cluster_queue", "team-a-cq", "from_cluster", "west")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LEASE_EXPIRIES, "cluster", "west")).isEqualTo(1.0);
    }
}
