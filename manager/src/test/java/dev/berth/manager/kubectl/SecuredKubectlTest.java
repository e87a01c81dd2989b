package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl with the quickstart's generated kubeconfig (TLS with the self-signed CA, bearer
 * tokens) against a secured manager holding the example queues and RBAC: the admin context manages
 * queues, the team-a context submits and reads in team-a and may not touch a ClusterQueue.
 */
@NeedsKubectl
class SecuredKubectlTest {
    static final Path EXAMPLES = Path.of("..", "examples");

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"));
    @TempDir
    static Path home;
    static Kubectl kubectl;
    static Path kubeconfig;

    @BeforeAll
    static void startSecuredManager() throws Exception {
        kubeconfig = harness.writeKubeconfig(home.resolve("kube").resolve("kubeconfig"));
        kubectl = Kubectl.withKubeconfig(kubeconfig);
    }

    @Test
    void secretsAreReadableByTheirOwnerOnly() throws Exception {
        for (Path secret : new Path[] {kubeconfig, harness.dataDir().resolve("security/tokens.csv"), harness.dataDir().resolve("security/tls.key")}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).as(secret.toString()).isEqualTo("rw-------");
        }
        assertThat(Files.readString(kubeconfig)).contains("server: https://127.0.0.1:").contains("certificate-authority-data: ")
                .contains("current-context: " + QuickstartCredentials.ADMIN_CONTEXT);
    }

    @Test
    void theAdminReadsClusterQueues() throws Exception {
        String out = kubectl.run("kubectl get clusterqueues").ok().stdout();
        assertThat(out).containsPattern("team-a-cq\\s+");
        assertThat(kubectl.run("kubectl get clusterqueues -o wide").ok().stdout()).contains("COHORT");
        assertThat(kubectl.run("kubectl api-resources --api-group=kueue.x-k8s.io").ok().stdout())
                .containsPattern("clusterqueues\\s+cq\\s+kueue.x-k8s.io/v1beta2\\s+false\\s+ClusterQueue");
        assertThat(kubectl.run("kubectl describe clusterqueue team-a-cq").ok().stdout()).contains("team-a-cq");
    }

    @Test
    void theTenantSubmitsAndReadsItsNamespaceButCannotHoldAClusterQueue() throws Exception {
        String tenant = "kubectl --context " + QuickstartCredentials.TENANT_CONTEXT + " ";
        kubectl.run(tenant + "create -f " + EXAMPLES.resolve("jobs").resolve("sample-job.yaml").toAbsolutePath()).ok();
        String workloads = await().atMost(Duration.ofSeconds(20)).until(
                () -> kubectl.run(tenant + "get workloads -n team-a").ok().stdout(), s -> s.contains("team-a-queue"));
        assertThat(workloads).containsPattern("NAME\\s+QUEUE");

        Kubectl.Result hold = kubectl.run(tenant + "patch clusterqueue team-a-cq --type=merge -p '{\"spec\":{\"stopPolicy\":\"Hold\"}}'");
        assertThat(hold.exitCode()).isNotZero();
        assertThat(hold.stderr()).contains("Forbidden").contains("clusterqueues");
        assertThat(kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.spec.stopPolicy}").ok().stdout()).isNotEqualTo("Hold");

        Kubectl.Result otherTeam = kubectl.run(tenant + "get workloads -n team-b");
        assertThat(otherTeam.exitCode()).isNotZero();
        assertThat(otherTeam.stderr()).contains("Forbidden");
    }
}
