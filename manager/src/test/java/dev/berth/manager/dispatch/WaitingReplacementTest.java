package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a cluster's heartbeat or event is worth placing every waiting workload again. */
class WaitingReplacementTest {
    private static final Instant T0 = Instant.parse("2026-12-02T05:00:00Z");
    private static final Duration STALE_AFTER = Duration.ofSeconds(30);
    private final WaitingReplacement replacement = new WaitingReplacement(STALE_AFTER, Duration.ofSeconds(10));

    private static ClusterView view(String name, Instant heartbeat, long freeGpus) {
        return view(name, heartbeat, freeGpus, ClusterHealth.HEALTHY);
    }

    private static ClusterView view(String name, Instant heartbeat, long freeGpus, ClusterHealth health) {
        return new ClusterView(name, true, false, heartbeat, Map.of("a100", new FlavorCapacity("a100",
                Map.of("nvidia.com/gpu", freeGpus), Map.of("nvidia.com/gpu", Math.min(8, freeGpus)))), health, BreakerState.CLOSED);
    }

    @Test
    void aRenewedHeartbeatWithTheSameReportPlacesNothingAgain() {
        assertThat(replacement.due(view("a", T0, 8), T0)).as("first event of the cluster").isTrue();

        assertThat(replacement.due(view("a", T0.plusSeconds(1), 8), T0.plusSeconds(1))).isFalse();
        assertThat(replacement.due(view("a", T0.plusSeconds(2), 8), T0.plusSeconds(2))).isFalse();
    }

    @Test
    void changedFreeCapacityPlacesTheWaitingAgainAtOnce() {
        replacement.due(view("a", T0, 8), T0);

        assertThat(replacement.due(view("a", T0.plusSeconds(1), 16), T0.plusSeconds(1))).isTrue();
        assertThat(replacement.due(view("a", T0.plusSeconds(2), 16), T0.plusSeconds(2))).isFalse();
        assertThat(replacement.due(view("a", T0.plusSeconds(3), 8), T0.plusSeconds(3))).as("capacity taken is a change too").isTrue();
    }

    @Test
    void aHealthBreakerConnectionOrCordonChangeIsAChange() {
        replacement.due(view("a", T0, 8), T0);

        assertThat(replacement.due(view("a", T0, 8, ClusterHealth.DEGRADED), T0.plusSeconds(1))).isTrue();
        ClusterView degraded = view("a", T0, 8, ClusterHealth.DEGRADED);
        assertThat(replacement.due(new ClusterView("a", true, false, T0, degraded.flavors(), ClusterHealth.DEGRADED, BreakerState.OPEN),
                T0.plusSeconds(2))).as("breaker").isTrue();
        assertThat(replacement.due(new ClusterView("a", false, false, T0, degraded.flavors(), ClusterHealth.DEGRADED, BreakerState.OPEN),
                T0.plusSeconds(3))).as("connection").isTrue();
        assertThat(replacement.due(new ClusterView("a", false, true, T0, degraded.flavors(), ClusterHealth.DEGRADED, BreakerState.OPEN),
                T0.plusSeconds(4))).as("cordon").isTrue();
    }

    @Test
    void aHeartbeatTurningFreshAgainIsAChange() {
        replacement.due(view("a", T0, 8), T0);
        Instant later = T0.plusSeconds(31);
        assertThat(replacement.due(view("a", T0, 8), later)).as("stale now: placement rejects the cluster").isTrue();

        assertThat(replacement.due(view("a", later, 8), later.plusMillis(10))).as("fresh again").isTrue();
    }

    @Test
    void anUnchangedClusterStillPlacesTheWaitingAgainEveryInterval() {
        replacement.due(view("a", T0, 8), T0);

        assertThat(replacement.due(view("a", T0.plusSeconds(9), 8), T0.plusSeconds(9))).isFalse();
        assertThat(replacement.due(view("a", T0.plusSeconds(10), 8), T0.plusSeconds(10))).isTrue();
        assertThat(replacement.due(view("a", T0.plusSeconds(11), 8), T0.plusSeconds(11))).isFalse();
    }

    @Test
    void clustersAreJudgedApart() {
        replacement.due(view("a", T0, 8), T0);

        assertThat(replacement.due(view("b", T0, 8), T0.plusSeconds(1))).as("b's first event").isTrue();
        assertThat(replacement.due(view("a", T0.plusSeconds(1), 8), T0.plusSeconds(1))).isFalse();
        assertThat(replacement.due(view("a", T0.plusSeconds(2), 16), T0.plusSeconds(2))).isTrue();
    }
}
