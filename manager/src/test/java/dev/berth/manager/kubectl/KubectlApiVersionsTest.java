package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl reads and writes Kueue objects through kueue.x-k8s.io/v1beta1 in v1beta1's shape,
 * and what it writes through one version reads the same through the other (issue 13).
 */
@NeedsKubectl
class KubectlApiVersionsTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void getThroughV1beta1ShowsCohort() throws Exception {
        kubectl.run("kubectl create -f " + manifest("v2-queue", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: v2-queue}
                spec: {cohortName: research, namespaceSelector: {}}
                """)).ok();

        String yaml = kubectl.run("kubectl get clusterqueues.v1beta1.kueue.x-k8s.io v2-queue -o yaml").ok().stdout();

        assertThat(yaml).contains("apiVersion: kueue.x-k8s.io/v1beta1").contains("cohort: research").doesNotContain("cohortName");
        assertThat(kubectl.run("kubectl get clusterqueues.v1beta1.kueue.x-k8s.io v2-queue").ok().stdout()).contains("research");
    }

    @Test
    void applyThroughV1beta1ReadsAsCohortNameThroughV1beta2() throws Exception {
        Path v1 = manifest("v1-queue", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: v1-queue}
                spec: {cohort: research, namespaceSelector: {}}
                """);
        kubectl.run("kubectl apply -f " + v1).ok();
        assertThat(kubectl.run("kubectl get clusterqueues.v1beta2.kueue.x-k8s.io v1-queue -o jsonpath={.spec.cohortName}").ok().stdout())
                .isEqualTo("research");

        // a second apply of the same v1beta1 manifest finds nothing to change
        assertThat(kubectl.run("kubectl diff -f " + v1).exitCode()).isZero();
        Files.writeString(v1, Files.readString(v1).replace("cohort: research", "cohort: elsewhere"));
        kubectl.run("kubectl apply -f " + v1).ok();
        assertThat(kubectl.run("kubectl get clusterqueues.v1beta2.kueue.x-k8s.io v1-queue -o jsonpath={.spec.cohortName}").ok().stdout())
                .isEqualTo("elsewhere");
    }

    private static Path manifest(String name, String yaml) throws Exception {
        return Files.writeString(home.resolve(name + ".yaml"), yaml);
    }
}
