package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.objects.WorkloadResourcePolicy;
import dev.berth.manager.controller.JobIntegrationSettings;
import dev.berth.manager.controller.ManagedJobsPolicy;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kueue's LocalQueue defaulting and manageJobsWithoutQueueName through the real kubectl: a Job created
 * without the queue-name label in a namespace with a LocalQueue named default carries the label and
 * runs; in a namespace without one it is suspended and has a Workload that waits.
 */
@NeedsKubectl
class KubectlManagedJobsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().jobIntegration(
            new JobIntegrationSettings(WorkloadResourcePolicy.NONE, new ManagedJobsPolicy(true, ManagedJobsPolicy.DEFAULT_NAMESPACE_SELECTOR)));
    static final Kubectl kubectl = Kubectl.on(harness);

    @BeforeAll
    static void createQueues() throws Exception {
        apply("queues", """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: with-default
                ---
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: without-default
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata:
                  name: f
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata:
                  name: cq
                spec:
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: f
                      resources:
                      - name: cpu
                        nominalQuota: 4
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata:
                  name: default
                  namespace: with-default
                spec:
                  clusterQueue: cq
                """);
    }

    @Test
    void aJobWithoutTheLabelTakesTheLocalQueueNamedDefaultAndRuns() throws Exception {
        apply("defaulted", job("defaulted", "with-default"));

        assertThat(jsonpath("with-default", "job defaulted", ".metadata.labels.kueue\\.x-k8s\\.io/queue-name")).isEqualTo("default");
        await().atMost(PATIENCE).until(() -> jsonpath("with-default", "job defaulted", ".spec.suspend"), "false"::equals);
    }

    @Test
    void aJobWithoutTheLabelOrADefaultQueueIsSuspendedWithAWaitingWorkload() throws Exception {
        apply("unqueued", job("unqueued", "without-default"));

        assertThat(jsonpath("without-default", "job unqueued", ".spec.suspend")).isEqualTo("true");
        String message = await().atMost(PATIENCE).until(() -> jsonpath("without-default", "workloads",
                ".items[0].status.conditions[?(@.type==\"QuotaReserved\")].message"), s -> !s.isBlank());
        assertThat(message).isEqualTo("LocalQueue  doesn't exist");
    }

    private static String job(String name, String namespace) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                        resources:
                          requests:
                            cpu: 1
                """.formatted(name, namespace);
    }

    private static void apply(String name, String yaml) throws Exception {
        Path file = Files.writeString(harness.dataDir().resolve(name + ".yaml"), yaml);
        kubectl.run("kubectl create -f " + file).ok();
    }

    private static String jsonpath(String namespace, String object, String path) throws Exception {
        List<String> words = new java.util.ArrayList<>(List.of("kubectl", "get"));
        words.addAll(List.of(object.split(" ")));
        words.addAll(List.of("-n", namespace, "-o", "jsonpath={" + path + "}"));
        return kubectl.run(words).ok().stdout();
    }
}
