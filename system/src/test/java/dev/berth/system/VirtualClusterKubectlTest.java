package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsKubectl;
import dev.berth.virtualcluster.ClusterProfile;
import dev.berth.virtualcluster.VirtualCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real kubectl against a virtual cluster, as an operator reaches a worker cluster (docs/operations.md,
 * "Do the pods schedule?"): discovery names the built-in kinds and every CRD the cluster serves, so
 * {@code get nodes}, {@code get pods}, {@code describe}, {@code api-resources} and {@code get <crd kind>} work, and a
 * group nobody serves is a 404, not the list of everything the CRUD mock holds. It serves no OpenAPI, so writes
 * take {@code --validate=false}.
 */
@NeedsKubectl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VirtualClusterKubectlTest {
    private VirtualCluster cluster;
    private KubectlCli kubectl;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-vc-kubectl-test");
        cluster = VirtualCluster.start("vc", ClusterProfile.parse("a100:1x8,cpu:2"), dir, false, VirtualCluster.DEFAULT_PERIOD);
        kubectl = KubectlCli.against("http://127.0.0.1:" + cluster.port(), dir.resolve("kubectl-home"));
    }

    @AfterAll
    void stop() {
        if (cluster != null) cluster.close();
    }

    @Test
    void kubectlDiscoversTheBuiltInKindsAndEveryServedCrd() throws Exception {
        String resources = kubectl.run("api-resources").ok().stdout();
        assertThat(resources)
                .containsPattern("nodes\\s+no\\s+v1\\s+false\\s+Node")
                .containsPattern("pods\\s+po\\s+v1\\s+true\\s+Pod")
                .containsPattern("jobs\\s+batch/v1\\s+true\\s+Job")
                .containsPattern("remoteworkloads\\s+rwl\\s+berth.dev/v1alpha1\\s+true\\s+RemoteWorkload")
                .containsPattern("pytorchjobs\\s+kubeflow.org/v1\\s+true\\s+PyTorchJob")
                .containsPattern("clustertrainingruntimes\\s+trainer.kubeflow.org/v1alpha1\\s+false\\s+ClusterTrainingRuntime");

        assertThat(kubectl.run("get", "nodes", "-o", "name").ok().stdout().lines())
                .containsExactlyInAnyOrder("node/vc-a100-0", "node/vc-cpu-0", "node/vc-cpu-1");
        assertThat(kubectl.run("get", "nodes", "vc-a100-0", "-o", "jsonpath={.status.allocatable.nvidia\\.com/gpu}").ok().stdout())
                .isEqualTo("8");
        assertThat(kubectl.run("get", "crd", "-o", "name").ok().stdout()).contains("customresourcedefinition.apiextensions.k8s.io/jobsets.jobset.x-k8s.io");
        assertThat(kubectl.run("get", "rwl", "-A").ok().stderr()).contains("No resources found");
    }

    @Test
    void aJobCreatedWithKubectlRunsItsPodIsListedAndANodeDescribes() throws Exception {
        Path job = Files.writeString(Files.createTempFile("hello-job", ".yaml"), """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: hello, namespace: default}
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
                """);
        // the virtual cluster serves no OpenAPI, so kubectl's client-side schema validation is turned off
        assertThat(kubectl.run("create", "--validate=false", "-f", job.toString()).ok().stdout()).contains("job.batch/hello created");

        assertThat(kubectl.run("get", "jobs", "-n", "default", "-o", "name").ok().stdout()).contains("job.batch/hello");
        await().atMost(Duration.ofSeconds(60)).until(() -> kubectl.run("get", "pods", "-n", "default", "-l", "job-name=hello", "-o", "name")
                .ok().stdout().startsWith("pod/hello-"));
        assertThat(kubectl.run("describe", "node", "vc-a100-0").ok().stdout()).contains("nvidia.com/gpu:").contains("NoSchedule");
    }

    @Test
    void aGroupVersionNobodyServesIsNotFound() throws Exception {
        KubectlCli.Result missing = kubectl.run("get", "--raw", "/apis/nothing.example.com/v1");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.stderr()).contains("NotFound");
        assertThat(kubectl.run("get", "--raw", "/apis/batch/v1").ok().stdout()).contains("\"kind\":\"APIResourceList\"").contains("\"name\":\"jobs\"");
    }
}
