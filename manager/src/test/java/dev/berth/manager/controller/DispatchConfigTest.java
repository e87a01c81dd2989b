package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dispatch and failover options from flags and environment, checked when they load. */
class DispatchConfigTest {
    @Test
    void defaultsAreKueuesAndTheLeaseIsShorter() {
        DispatchOptions options = DispatchConfig.parse(Map.of());
        assertThat(options.failover().workerLostTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(options.leaseDuration()).isLessThan(options.failover().workerLostTimeout());
    }

    @Test
    void drillSettingsGoDownToSeconds() {
        DispatchOptions options = DispatchConfig.parse(Map.of("worker-lost-timeout", "5s", "lease-duration", "4s",
                "agent-lost-after", "2s", "heartbeat-late-after", "1500ms", "contact-grace", "PT2S", "call-timeout", "1s",
                "retry-attempts", "2", "breaker-window", "4", "breaker-open-for", "2s", "max-concurrent-calls", "3"));
        assertThat(options.failover().workerLostTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.leaseDuration()).isEqualTo(Duration.ofSeconds(4));
        assertThat(options.failover().health().heartbeatLateAfter()).isEqualTo(Duration.ofMillis(1500));
        assertThat(options.resilience().slidingWindowCalls()).isEqualTo(4);
        assertThat(options.resilience().maxConcurrentCalls()).isEqualTo(3);
    }

    @Test
    void theStartTimeoutIsASettingWithKueuesFiveMinuteRoundAsDefaultAndReadsFromTheEnvironment() {
        DispatchOptions defaults = DispatchConfig.parse(Map.of());
        assertThat(defaults.startTimeout().startTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.startTimeout().avoidFor()).isEqualTo(Duration.ofMinutes(10));
        DispatchOptions drill = DispatchConfig.parse(Map.of("dispatch-start-timeout", "8s", "withdrawn-cluster-avoid-for", "1m"));
        assertThat(drill.startTimeout().startTimeout()).isEqualTo(Duration.ofSeconds(8));
        assertThat(drill.startTimeout().avoidFor()).isEqualTo(Duration.ofMinutes(1));
        assertThat(DispatchConfig.parse(Map.of("dispatch-start-timeout", "0s")).startTimeout().enabled()).isFalse();
        assertThat(DispatchConfig.fromEnvironment(Map.of("BERTH_DISPATCH_START_TIMEOUT", "2m")))
                .containsExactly(Map.entry("dispatch-start-timeout", "2m"));
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("dispatch-start-timeout", "later")))
                .hasMessageContaining("dispatch-start-timeout: \"later\" is not a duration");
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("dispatch-start-timeout", "-5s")))
                .hasMessageContaining("dispatch-start-timeout must not be negative");
    }

    @Test
    void theDispatchResyncIntervalIsASettingWithAFiveMinuteDefault() {
        assertThat(DispatchConfig.parse(Map.of()).workQueue().resyncInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(DispatchConfig.parse(Map.of("dispatch-resync-interval", "30s")).workQueue().resyncInterval())
                .isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("dispatch-resync-interval", "0s")))
                .hasMessageContaining("resyncInterval");
    }

    @Test
    void aLeaseNotShorterThanWorkerLostTimeoutFailsTheStart() {
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("worker-lost-timeout", "30s", "lease-duration", "60s")))
                .hasMessage("invalid dispatch configuration: dispatch lease duration (60s) must be shorter than workerLostTimeout (30s):"
                        + " otherwise a workload could be redispatched while its old copy may still run");
    }

    @Test
    void aRenewalWhoseRetriesCannotFinishWithinTheLeaseFailsTheStart() {
        // 3 attempts x 3 s + 200 ms + 400 ms of backoff = 9.6 s, but a 12 s lease renewed every 4 s leaves 8 s
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("worker-lost-timeout", "60s", "lease-duration", "12s",
                "call-timeout", "3s")))
                .hasMessage("invalid dispatch configuration: a lease renewal may take up to 9600ms (retry-attempts x call-timeout"
                        + " plus backoff), which must be shorter than lease-duration (12s) minus the renewal interval (4s):"
                        + " lengthen lease-duration or shorten call-timeout or retry-attempts");
        assertThat(DispatchConfig.parse(Map.of("worker-lost-timeout", "60s", "lease-duration", "15s", "call-timeout", "3s"))
                .renewEvery()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void badValuesNameTheOption() {
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("worker-lost-timeout", "soon")))
                .hasMessageContaining("worker-lost-timeout: \"soon\" is not a duration");
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("retry-attempts", "many"))).hasMessageContaining("retry-attempts");
        assertThatThrownBy(() -> DispatchConfig.parse(Map.of("worker-lost", "5s"))).hasMessageContaining("unknown dispatch option worker-lost");
    }

    @Test
    void theEnvironmentNamesOptionsWithBerthPrefix() {
        assertThat(DispatchConfig.fromEnvironment(Map.of("BERTH_WORKER_LOST_TIMEOUT", "20s", "PATH", "/bin")))
                .containsExactly(Map.entry("worker-lost-timeout", "20s"));
    }
}
