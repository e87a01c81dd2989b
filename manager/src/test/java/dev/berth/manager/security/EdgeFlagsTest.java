package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The edge limits' flags: defaults when absent, Go-style durations, and the replica copy keeps them. */
class EdgeFlagsTest {
    @Test
    void defaultsWhenNoFlagIsGiven() {
        SecurityOptions options = SecurityFlags.parse(Map.of("--token-auth-file", "tokens.csv"), Path.of("data")).orElseThrow();
        assertThat(options.edge()).isEqualTo(EdgeLimits.DEFAULTS);
        assertThat(EdgeLimits.DEFAULTS.anonymousRate()).isEqualTo(new SecurityOptions.RateLimit(10, 50));
        assertThat(EdgeLimits.DEFAULTS.dashboardStreamsPerUser()).isEqualTo(4);
        assertThat(EdgeLimits.DEFAULTS.dashboardStreams()).isEqualTo(64);
        assertThat(EdgeLimits.DEFAULTS.headerReadTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(EdgeLimits.DEFAULTS.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void everyLimitHasAFlag() {
        SecurityOptions options = SecurityFlags.parse(Map.of("--token-auth-file", "tokens.csv",
                "--anonymous-rate-limit", "5:20", "--dashboard-streams-per-user", "2", "--max-dashboard-streams", "8",
                "--request-header-timeout", "500ms", "--idle-connection-timeout", "2m"), Path.of("data")).orElseThrow();
        assertThat(options.edge()).isEqualTo(new EdgeLimits(new SecurityOptions.RateLimit(5, 20), 2, 8,
                Duration.ofMillis(500), Duration.ofMinutes(2)));
        assertThat(options.withoutTls().edge()).isEqualTo(options.edge());
    }

    @Test
    void refusesADurationWithoutAUnitAndLimitsThatAreNotPositive() {
        assertThatThrownBy(() -> SecurityFlags.parse(Map.of("--token-auth-file", "t", "--request-header-timeout", "10"), Path.of("d")))
                .hasMessageContaining("not a duration");
        assertThatThrownBy(() -> SecurityFlags.parse(Map.of("--token-auth-file", "t", "--max-dashboard-streams", "0"), Path.of("d")))
                .hasMessageContaining("must be positive");
    }
}
