package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServingAddressTest {
    @Test
    void theKubeconfigNamesTheAdvertisedHost() {
        ServingAddress inContainer = ServingAddress.of("0.0.0.0", 6443, "worker-1-api");
        assertThat(Kubeconfig.render("worker-1", inContainer.advertisedHost(), 6443, ClientIdentity.ADMIN)).contains("server: http://worker-1-api:6443");
    }

    @Test
    void theAdvertisedHostDefaultsToTheBindHostOrLoopbackForEveryInterface() {
        assertThat(ServingAddress.of("127.0.0.1", 0, null).advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(ServingAddress.of("0.0.0.0", 6443, null).advertisedHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void aPortOutOfRangeIsRejected() {
        assertThatThrownBy(() -> ServingAddress.of("0.0.0.0", 70000, null)).hasMessageContaining("--port");
    }
}
