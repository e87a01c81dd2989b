package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Every write verb kubectl has, and watch, against a manager started here with the example queues. */
@NeedsKubectl
class KubectlWritesTest {
    private static final String FLAVOR = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata:
              name: %s
              labels:
                tier: %s
            spec:
              nodeLabels:
                gpu: %s
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    private static Path file(String name, String content) throws Exception {
        return Files.writeString(home.resolve(name), content);
    }

    @Test
    void createThenClientSideApplyTwiceThenDelete() throws Exception {
        Path flavor = file("t4.yaml", FLAVOR.formatted("t4", "cheap", "t4"));
        assertThat(kubectl.run("kubectl create -f " + flavor).ok().stdout()).contains("resourceflavor.kueue.x-k8s.io/t4 created");
        assertThat(kubectl.run("kubectl create -f " + flavor).exitCode()).isNotZero();

        Path applied = file("l4.yaml", FLAVOR.formatted("l4", "cheap", "l4"));
        assertThat(kubectl.run("kubectl apply -f " + applied).ok().stdout()).contains("resourceflavor.kueue.x-k8s.io/l4 created");
        file("l4.yaml", FLAVOR.formatted("l4", "mid", "l4"));
        assertThat(kubectl.run("kubectl apply -f " + applied).ok().stdout()).contains("resourceflavor.kueue.x-k8s.io/l4 configured");
        assertThat(kubectl.run("kubectl get rf -l tier=mid -o name").ok().stdout().trim()).isEqualTo("resourceflavor.kueue.x-k8s.io/l4");
        assertThat(kubectl.run("kubectl get rf l4 -o yaml").ok().stdout()).contains("kubectl.kubernetes.io/last-applied-configuration", "tier: mid");
        assertThat(kubectl.run("kubectl apply -f " + applied).ok().stdout()).contains("resourceflavor.kueue.x-k8s.io/l4 unchanged");

        assertThat(kubectl.run("kubectl delete -f " + flavor).ok().stdout()).contains("resourceflavor.kueue.x-k8s.io \"t4\" deleted");
        Kubectl.Result gone = kubectl.run("kubectl get rf t4");
        assertThat(gone.exitCode()).isNotZero();
        assertThat(gone.stderr()).contains("resourceflavors.kueue.x-k8s.io \"t4\" not found");
    }

    @Test
    void serverSideApplyOwnsFieldsAndConflictsWithAnotherManager() throws Exception {
        Path flavor = file("v100.yaml", FLAVOR.formatted("v100", "old", "v100"));
        assertThat(kubectl.run("kubectl apply --server-side -f " + flavor).ok().stdout())
                .contains("resourceflavor.kueue.x-k8s.io/v100 serverside-applied");
        kubectl.run("kubectl patch rf v100 --type=merge -p '{\"spec\":{\"nodeLabels\":{\"gpu\":\"changed\"}}}'").ok();

        file("v100.yaml", FLAVOR.formatted("v100", "old", "v100-again"));
        Kubectl.Result conflict = kubectl.run("kubectl apply --server-side -f " + flavor);
        assertThat(conflict.exitCode()).isNotZero();
        assertThat(conflict.stderr()).contains("conflict", "kubectl-patch", ".spec.nodeLabels");

        assertThat(kubectl.run("kubectl apply --server-side --force-conflicts -f " + flavor).ok().stdout()).contains("serverside-applied");
        assertThat(kubectl.run("kubectl get rf v100 -o jsonpath={.spec.nodeLabels.gpu}").ok().stdout()).isEqualTo("v100-again");
        assertThat(kubectl.run("kubectl get rf v100 -o json --show-managed-fields").ok().stdout())
                .contains("\"manager\": \"kubectl\"", "\"operation\": \"Apply\"", "\"f:nodeLabels\"");
    }

    @Test
    void jsonPatchReplaceAndStatusSubresource() throws Exception {
        kubectl.run("kubectl create -f " + file("a10.yaml", FLAVOR.formatted("a10", "tier-x", "a10"))).ok();
        assertThat(kubectl.run("kubectl patch rf a10 --type=json -p '[{\"op\":\"test\",\"path\":\"/spec/nodeLabels/gpu\",\"value\":\"a10\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/nodeLabels/gpu\",\"value\":\"a10g\"}]'").ok().stdout()).contains("patched");
        Kubectl.Result failedTest = kubectl.run("kubectl patch rf a10 --type=json -p '[{\"op\":\"test\",\"path\":\"/spec/nodeLabels/gpu\",\"value\":\"nope\"}]'");
        assertThat(failedTest.exitCode()).isNotZero();
        assertThat(failedTest.stderr()).contains("test failed");
        assertThat(kubectl.run("kubectl replace -f " + file("a10.yaml", FLAVOR.formatted("a10", "tier-y", "a10-replaced"))).ok().stdout())
                .contains("resourceflavor.kueue.x-k8s.io/a10 replaced");
        assertThat(kubectl.run("kubectl get rf a10 -o jsonpath={.spec.nodeLabels.gpu}").ok().stdout()).isEqualTo("a10-replaced");

        assertThat(kubectl.run("kubectl patch localqueue team-b-queue -n team-b --subresource=status --type=merge "
                + "-p '{\"status\":{\"flavorsReservation\":[]}}'").ok().stdout()).contains("patched");
    }

    @Test
    void invalidObjectIs422NamingTheField() throws Exception {
        Path bad = file("bad-lq.yaml", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata:
                  name: Bad_Name
                  namespace: team-a
                spec:
                  clusterQueue: team-a-cq
                """);
        Kubectl.Result refused = kubectl.run("kubectl create -f " + bad);
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("is invalid", "metadata.name");
    }

    @Test
    void watchSeesControllerStatusChanges() throws Exception {
        // the Workload row appears once the Job derives it, and again with Admitted True once the controller writes its status
        Path output = home.resolve("watch.txt");
        Process watch = kubectl.start("kubectl get workloads -n team-b -w", output);
        try {
            String job = Files.readString(Path.of("..", "examples", "jobs", "sample-job.yaml"))
                    .replace("team-a", "team-b");
            kubectl.run("kubectl create -f " + file("job-b.yaml", job)).ok();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(Files.readString(output)).containsPattern("team-b-queue\\s+team-b-cq\\s+True"));
        } finally {
            watch.destroy();
            watch.waitFor();
        }
    }
}
