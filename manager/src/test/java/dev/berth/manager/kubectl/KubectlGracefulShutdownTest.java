package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl during a graceful shutdown: /readyz fails at once while writes are still accepted for the
 * shutdown delay, and a {@code kubectl get -w} sees its watch end as kube-apiserver ends it, not an error.
 */
@NeedsKubectl
class KubectlGracefulShutdownTest {
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues().configure(manager -> manager.shutdownDelay(Duration.ofSeconds(6)));
    final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    Path home;

    @Test
    void readinessFailsWritesAreServedThroughTheDelayAndAWatchEndsWithoutAnError() throws Exception {
        Path output = home.resolve("watch.txt");
        Process watch = kubectl.start("kubectl get clusterqueues -w", output);
        try {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(Files.readString(output)).contains("team-a-cq"));
            Thread stopping = new Thread(harness::stopManager, "stopping-manager");
            stopping.start();

            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                Kubectl.Result readiness = kubectl.run("kubectl get --raw /readyz?verbose");
                assertThat(readiness.exitCode()).isNotZero();
                assertThat(readiness.stderr()).contains("[-]shutdown failed: reason withheld");
            });
            assertThat(kubectl.run("kubectl get --raw /livez").ok().stdout()).isEqualTo("ok");
            kubectl.run("kubectl create -f " + Path.of("..", "examples", "jobs", "sample-job.yaml").toAbsolutePath()).ok();
            assertThat(watch.isAlive()).as("the watch is served through the delay").isTrue();

            assertThat(watch.waitFor(30, TimeUnit.SECONDS)).as("kubectl's watch ended when the listener stopped").isTrue();
            String printed = Files.readString(output);
            assertThat(printed).doesNotContainIgnoringCase("error");
            assertThat(watch.exitValue()).as(printed).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> !stopping.isAlive());
        } finally {
            watch.destroy();
            watch.waitFor();
        }
    }
}
