package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The real kubectl reads the manager's health endpoints as it reads kube-apiserver's, the store's check among them. */
@NeedsKubectl
class KubectlHealthTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);

    @Test
    void verboseReadinessAndLivenessListEveryCheck() throws Exception {
        for (String endpoint : new String[] {"readyz", "livez", "healthz"}) {
            String verbose = kubectl.run("kubectl get --raw /" + endpoint + "?verbose").ok().stdout();
            assertThat(verbose).contains("[+]ping ok", "[+]store ok", endpoint + " check passed");
        }
        assertThat(kubectl.run("kubectl get --raw /livez/store").ok().stdout()).isEqualTo("ok");
        assertThat(kubectl.run("kubectl get --raw /livez").ok().stdout()).isEqualTo("ok");
        assertThat(kubectl.run("kubectl get --raw /readyz?verbose&exclude=store-readiness").ok().stdout())
                .contains("[+]store-readiness excluded: ok", "readyz check passed");
    }
}
