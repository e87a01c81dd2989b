package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentConfigTest {
    @Test
    void defaults() {
        AgentConfig config = AgentConfig.parse("--name", "gpu-east");

        assertThat(config).isEqualTo(new AgentConfig("gpu-east", Optional.empty(), "0.0.0.0", 8081, Duration.ofSeconds(2),
                Duration.ofMillis(500), Optional.empty()));
        assertThat(config.leaseDurationSeconds()).isEqualTo(6);
    }

    @Test
    void everyOptionInBothSpellings() {
        AgentConfig config = AgentConfig.parse("--name=gpu-west", "--kubeconfig", "/tmp/kc", "--port=0", "--host", "127.0.0.1",
                "--heartbeat", "PT0.2S", "--reconcile-interval=PT0.1S", "--namespace-scope", "team-a");

        assertThat(config.kubeconfig()).contains(Path.of("/tmp/kc"));
        assertThat(config.port()).isZero();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.heartbeat()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.reconcileInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(config.namespaceScope()).contains("team-a");
        assertThat(config.leaseDurationSeconds()).isEqualTo(1);
    }

    @Test
    void mistakesAreExplained() {
        assertThatThrownBy(() -> AgentConfig.parse()).hasMessageContaining("--name is required");
        assertThatThrownBy(() -> AgentConfig.parse("--name", "a", "--heartbeat", "2s")).hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> AgentConfig.parse("--name", "a", "--colour", "red")).hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> AgentConfig.parse("--name")).hasMessageContaining("needs a value");
    }
}
