package dev.berth.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.core.PodsReadyPolicy;
import dev.berth.manager.core.PodsReadyPolicy.Timestamp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PodsReadyFlagTest {
    @Test
    void anEmptyValueEnablesWaitForPodsReadyWithKueuesDefaults() {
        PodsReadyPolicy policy = PodsReadyFlag.parse("");
        assertThat(policy.enable()).isTrue();
        assertThat(policy.timeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(policy.blockAdmission()).isFalse();
        assertThat(policy.recoveryTimeout()).isNull();
        assertThat(policy.requeuingStrategy().timestamp()).isEqualTo(Timestamp.EVICTION);
        assertThat(policy.requeuingStrategy().backoffLimitCount()).isNull();
        assertThat(policy.requeuingStrategy().backoffBaseSeconds()).isEqualTo(60);
        assertThat(policy.requeuingStrategy().backoffMaxSeconds()).isEqualTo(3600);
    }

    @Test
    void everyFieldOfKueuesWaitForPodsReadyIsRead() {
        PodsReadyPolicy policy = PodsReadyFlag.parse(
                "timeout=10m,blockAdmission=true,recoveryTimeout=PT3M,timestamp=Creation,backoffLimitCount=5,backoffBaseSeconds=30,backoffMaxSeconds=600");
        assertThat(policy.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(policy.blockAdmission()).isTrue();
        assertThat(policy.recoveryTimeout()).isEqualTo(Duration.ofMinutes(3));
        assertThat(policy.requeuingStrategy().timestamp()).isEqualTo(Timestamp.CREATION);
        assertThat(policy.requeuingStrategy().backoffLimitCount()).isEqualTo(5);
        assertThat(policy.requeuingStrategy().backoffBaseSeconds()).isEqualTo(30);
        assertThat(policy.requeuingStrategy().backoffMaxSeconds()).isEqualTo(600);
    }

    @Test
    void aWrongValueIsRefusedNamingTheField() {
        assertThatThrownBy(() -> PodsReadyFlag.parse("timeout=soon")).hasMessageContaining("timeout");
        assertThatThrownBy(() -> PodsReadyFlag.parse("timestamp=Admission")).hasMessageContaining("timestamp");
        assertThatThrownBy(() -> PodsReadyFlag.parse("backoffLimitCount=-1")).hasMessageContaining("backoffLimitCount");
        assertThatThrownBy(() -> PodsReadyFlag.parse("blockAdmision=true")).hasMessageContaining("blockAdmision");
    }
}
