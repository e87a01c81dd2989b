package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a workload leaves a lost cluster; workerLostTimeout 60s, lease margin 10s. */
class LostClusterPolicyTest {
    private static final Instant LOST = Instant.parse("2026-01-01T12:00:00Z");
    private final FailoverOptions options = new FailoverOptions(Duration.ofSeconds(60), Duration.ofSeconds(10), HealthOptions.DEFAULTS);
    private final LostClusterPolicy policy = new LostClusterPolicy(options);

    @Test
    void aLostClusterKeepsItsWorkloadsUntilTheTimeoutPasses() {
        Instant renewed = LOST.minusSeconds(5);
        Duration lease = Duration.ofSeconds(30);
        assertThat(policy.shouldEvict(ClusterHealth.UNREACHABLE, LOST, renewed, lease, LOST.plusSeconds(59))).isFalse();
        assertThat(policy.shouldEvict(ClusterHealth.UNREACHABLE, LOST, renewed, lease, LOST.plusSeconds(60))).isTrue();
        assertThat(policy.shouldEvict(ClusterHealth.AGENT_LOST, LOST, renewed, lease, LOST.plusSeconds(61))).isTrue();
    }

    @Test
    void transientBlipsNeverEvict() {
        Instant muchLater = LOST.plus(Duration.ofHours(2));
        assertThat(policy.shouldEvict(ClusterHealth.DEGRADED, LOST, LOST, Duration.ofSeconds(30), muchLater)).isFalse();
        assertThat(policy.shouldEvict(ClusterHealth.HEALTHY, LOST, LOST, Duration.ofSeconds(30), muchLater)).isFalse();
        assertThat(policy.shouldEvict(ClusterHealth.UNREACHABLE, null, LOST, Duration.ofSeconds(30), muchLater)).isFalse();
    }

    @Test
    void aLongerLeaseWaitsUntilTheLeaseHasSurelyExpired() {
        Duration lease = Duration.ofMinutes(30);
        Instant renewed = LOST.minusSeconds(1);
        assertThat(policy.evictAt(LOST, renewed, lease)).isEqualTo(renewed.plus(lease).plusSeconds(10));
        assertThat(policy.shouldEvict(ClusterHealth.UNREACHABLE, LOST, renewed, lease, LOST.plusSeconds(61))).isFalse();
        assertThat(policy.shouldEvict(ClusterHealth.UNREACHABLE, LOST, renewed, lease, renewed.plus(lease).plusSeconds(10))).isTrue();
    }

    @Test
    void theMessageNamesTheClusterAndSinceWhen() {
        String message = LostClusterPolicy.message("gpu-east", new HealthAssessment(ClusterHealth.UNREACHABLE, "circuit breaker open"),
                LOST, Duration.ofSeconds(60));
        assertThat(message).contains("gpu-east", "Unreachable", "since " + LOST, "60s");
    }

    @Test
    void theLeaseMustBeShorterThanWorkerLostTimeout() {
        options.validateLease(Duration.ofSeconds(59));
        assertThatThrownBy(() -> options.validateLease(Duration.ofSeconds(60)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dispatch lease duration (60s) must be shorter than workerLostTimeout (60s)");
        assertThatThrownBy(() -> options.validateLease(Duration.ZERO)).hasMessageContaining("must be positive");
    }

    @Test
    void workerLostTimeoutDefaultsToKueuesFifteenMinutes() {
        assertThat(FailoverOptions.DEFAULTS.workerLostTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThatThrownBy(() -> new FailoverOptions(Duration.ZERO, Duration.ZERO, HealthOptions.DEFAULTS))
                .hasMessageContaining("workerLostTimeout must be positive");
    }

    @Test
    void leasesAreRenewedThroughABlipAndStopInTimeForTheTimeout() {
        Duration lease = Duration.ofSeconds(30);
        assertThat(policy.keepRenewing(null, lease, LOST)).isTrue();
        assertThat(policy.keepRenewing(LOST, lease, LOST.plusSeconds(19))).isTrue();
        assertThat(policy.keepRenewing(LOST, lease, LOST.plusSeconds(20))).isFalse();
        Instant lastRenewal = LOST.plusSeconds(19);
        assertThat(policy.evictAt(LOST, lastRenewal, lease)).isEqualTo(LOST.plusSeconds(60));
        assertThat(policy.keepRenewing(LOST, Duration.ofMinutes(30), LOST)).isFalse();
    }
}
