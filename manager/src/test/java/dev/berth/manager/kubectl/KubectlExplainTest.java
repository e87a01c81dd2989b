package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real kubectl reads Berth's OpenAPI (issue 13): explain prints the field docs of custom and
 * built-in kinds, at either served Kueue version, the serving kinds and Kubeflow Trainer's (issue 17)
 * included, and apply (or create) of a manifest with an unknown field
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

    /** The serving and Trainer kinds of issue 17, from the vendored Kubernetes 1.32 and Trainer v2.1.0 schemas. */
    @ParameterizedTest(name = "kubectl explain {0}")
    @CsvSource(delimiter = '|', value = {
            "deployment.spec.replicas             | apps                 | Deployment             | v1       | FIELD: replicas <integer>",
            "statefulset.spec.serviceName         | apps                 | StatefulSet            | v1       | FIELD: serviceName <string>",
            "statefulset.spec.volumeClaimTemplates | apps                | StatefulSet            | v1       | FIELD: volumeClaimTemplates <[]PersistentVolumeClaim>",
            "trainjob.spec.runtimeRef             | trainer.kubeflow.org | TrainJob               | v1alpha1 | FIELD: runtimeRef <Object>",
            "trainingruntime.spec.mlPolicy        | trainer.kubeflow.org | TrainingRuntime        | v1alpha1 | FIELD: mlPolicy <Object>",
            "clustertrainingruntime.spec.template | trainer.kubeflow.org | ClusterTrainingRuntime | v1alpha1 | FIELD: template <Object>",
    })
    void explainPrintsTheFieldDocsOfTheServingAndTrainerKinds(String field, String group, String kind, String version, String line) throws Exception {
        String out = kubectl.run("kubectl explain " + field).ok().stdout();

        assertThat(out).contains("GROUP:      " + group, "KIND:       " + kind, "VERSION:    " + version, line);
    }

    @Test
    void explainNamesTheRuntimeRefsFields() throws Exception {
        assertThat(kubectl.run("kubectl explain trainjob.spec.runtimeRef").ok().stdout())
                .contains("name\t<string> -required-", "kind\t<string>", "apiGroup\t<string>");
    }

    @Test
    void createUnderValidateStrictOfADeploymentWithAnUnknownFieldIsRefusedNamingIt() throws Exception {
        String deployment = Files.readString(Path.of("..", "examples", "jobs", "deployment.yaml"))
                .replace("name: vllm-server", "name: strict-deployment").replace("  replicas: 2", "  replicas: 2\n  replica: 3");
        Path manifest = write("strict-deployment", deployment);

        Kubectl.Result refused = kubectl.run("kubectl create --validate=strict -f " + manifest);

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("strict decoding error", "unknown field \"spec.replica\"");
        assertThat(kubectl.run("kubectl get deployment strict-deployment -n team-a").exitCode()).isNotZero();
    }

    @Test
    void theTrainJobExamplePassesKubectlsStrictDefaultValidationAndDescribes() throws Exception {
        kubectl.run("kubectl create -f " + Path.of("..", "examples", "jobs", "trainjob.yaml").toAbsolutePath()).ok();

        String out = kubectl.run("kubectl describe trainjob torch-mnist -n team-a").ok().stdout();

        assertThat(out).contains("Kind:         TrainJob").containsPattern("Runtime Ref:\\s+Name:\\s+torch-distributed").containsPattern("Num Nodes:\\s+2");
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
