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
 * The real kubectl reads Berth's OpenAPI (issue 13): explain prints the field docs of custom and
 * built-in kinds, at either served Kueue version, and apply of a manifest with an unknown field
 * gets kubectl's error under --validate=strict and its warning under --validate=warn.
 */
@NeedsKubectl
class KubectlExplainTest {
    private static final String QUEUE_WITH_OLD_FIELD = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ClusterQueue
            metadata:
              name: %s
            spec:
              cohort: shared
              namespaceSelector: {}
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void explainPrintsTheFieldDocsOfAClusterQueuesResourceGroups() throws Exception {
        String out = kubectl.run("kubectl explain clusterqueue.spec.resourceGroups").ok().stdout();

        assertThat(out).contains("GROUP:      kueue.x-k8s.io", "KIND:       ClusterQueue", "VERSION:    v1beta2",
                "FIELD: resourceGroups <[]Object>", "coveredResources", "flavors");
    }

    @Test
    void explainWalksABuiltInKindThroughItsReferences() throws Exception {
        String out = kubectl.run("kubectl explain job.spec.template").ok().stdout();

        assertThat(out).contains("KIND:       Job", "FIELD: template <PodTemplateSpec>", "metadata\t<ObjectMeta>", "spec\t<PodSpec>");
    }

    @Test
    void explainReadsTheV1beta1SchemaWhenAskedForIt() throws Exception {
        String out = kubectl.run("kubectl explain workload --api-version=kueue.x-k8s.io/v1beta1").ok().stdout();

        assertThat(out).contains("VERSION:    v1beta1", "KIND:       Workload", "spec\t<Object>");
        assertThat(kubectl.run("kubectl explain clusterqueue.spec.cohort --api-version=kueue.x-k8s.io/v1beta1").ok().stdout())
                .contains("FIELD: cohort <string>");
    }

    @Test
    void applyUnderValidateStrictIsRefusedNamingTheUnknownField() throws Exception {
        Path manifest = write("strict", QUEUE_WITH_OLD_FIELD.formatted("strict-queue"));

        Kubectl.Result refused = kubectl.run("kubectl apply --validate=strict -f " + manifest);

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("strict decoding error", "unknown field \"spec.cohort\"");
        assertThat(kubectl.run("kubectl get clusterqueue strict-queue").exitCode()).isNotZero();
    }

    @Test
    void applyUnderValidateWarnPrintsKubectlsWarningAndStoresThePrunedObject() throws Exception {
        Path manifest = write("warn", QUEUE_WITH_OLD_FIELD.formatted("warned-queue"));

        Kubectl.Result applied = kubectl.run("kubectl apply --validate=warn -f " + manifest).ok();

        assertThat(applied.stderr()).contains("Warning: unknown field \"spec.cohort\"");
        assertThat(kubectl.run("kubectl get clusterqueue warned-queue -o jsonpath={.spec}").ok().stdout()).doesNotContain("cohort");
    }

    private static Path write(String name, String yaml) throws Exception {
        Path file = home.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
