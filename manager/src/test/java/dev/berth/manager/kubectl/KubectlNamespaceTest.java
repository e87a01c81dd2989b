package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's namespace habits (issue 13): a namespace reads Active, {@code kubectl delete ns}
 * takes its LocalQueues with it, a namespace held by a finalizer reads Terminating and refuses new
 * content, and a create in a namespace that does not exist is NotFound.
 */
@NeedsKubectl
class KubectlNamespaceTest {
    private static final String LOCAL_QUEUE = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata:
              name: lq
              namespace: %s
            spec:
              clusterQueue: team-a-cq
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void deletingANamespaceDeletesItsLocalQueues() throws Exception {
        // from a file: `kubectl create namespace` sends protobuf, which Berth does not read
        kubectl.run("kubectl create -f " + Files.writeString(home.resolve("team-x.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-x\n")).ok();
        assertThat(kubectl.run("kubectl get ns team-x -o jsonpath={.status.phase}").ok().stdout()).isEqualTo("Active");
        kubectl.run("kubectl create -f " + localQueue("team-x")).ok();
        assertThat(kubectl.run("kubectl get localqueues -n team-x -o name").ok().stdout().trim()).isEqualTo("localqueue.kueue.x-k8s.io/lq");

        assertThat(kubectl.run("kubectl delete ns team-x").ok().stdout()).contains("namespace \"team-x\" deleted");

        assertThat(kubectl.run("kubectl get localqueues -n team-x -o name").ok().stdout()).isEmpty();
        Kubectl.Result gone = kubectl.run("kubectl get ns team-x -o jsonpath={.status.phase}");
        assertThat(gone.exitCode()).isNotZero();
        assertThat(gone.stderr()).contains("namespaces \"team-x\" not found");
    }

    @Test
    void aNamespaceHeldByAFinalizerReadsTerminatingAndRefusesNewContent() throws Exception {
        Path held = Files.writeString(home.resolve("held.yaml"), """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: held
                  finalizers: ["example.com/hold"]
                """);
        kubectl.run("kubectl create -f " + held).ok();
        kubectl.run("kubectl delete ns held --wait=false").ok();
        assertThat(kubectl.run("kubectl get ns held -o jsonpath={.status.phase}").ok().stdout()).isEqualTo("Terminating");
        assertThat(kubectl.run("kubectl get ns held --no-headers").ok().stdout()).containsPattern("^held\\s+Terminating\\s");

        Kubectl.Result refused = kubectl.run("kubectl create -f " + localQueue("held"));
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("Forbidden", "unable to create new content in namespace held because it is being terminated");

        kubectl.run(List.of("patch", "ns", "held", "--type=merge", "-p", "{\"metadata\":{\"finalizers\":null}}")).ok();
        assertThat(kubectl.run("kubectl get ns held").exitCode()).isNotZero();
    }

    @Test
    void creatingInAMissingNamespaceIsNotFoundAndSystemNamespacesStay() throws Exception {
        Kubectl.Result refused = kubectl.run("kubectl create -f " + localQueue("nowhere"));
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("NotFound", "namespaces \"nowhere\" not found");

        Kubectl.Result immortal = kubectl.run("kubectl delete ns default");
        assertThat(immortal.exitCode()).isNotZero();
        assertThat(immortal.stderr()).contains("namespaces \"default\" is forbidden: this namespace may not be deleted");
        assertThat(kubectl.run("kubectl get ns -o name").ok().stdout())
                .contains("namespace/default", "namespace/kube-system", "namespace/kube-public", "namespace/kube-node-lease");
    }

    private static Path localQueue(String namespace) throws Exception {
        return Files.writeString(home.resolve("lq-" + namespace + ".yaml"), LOCAL_QUEUE.formatted(namespace));
    }
}
