package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * kube-apiserver's update rules for a Job, through the real kubectl: a queued (suspended, never started) Job takes new
 * scheduling directives, but neither a new image nor new requests nor new completions; once admitted (unsuspended)
 * its template does not change at all. Every refusal is a 422 naming the field, and nothing stored changes, so what a
 * worker runs is what the Workload was derived from. A waiting job's new parallelism or queue is followed by its
 * Workload, as Kueue's job reconciler follows them; a running job cannot change queues.
 */
@NeedsKubectl
class KubectlJobUpdateTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    private static Path job(String name, int gpus, String image, String nodeSelector) throws Exception {
        return Files.writeString(home.resolve(name + "-" + image.replaceAll("\\W", "") + nodeSelector.replaceAll("\\W", "") + ".yaml"), """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: team-a
                  labels:
                    kueue.x-k8s.io/queue-name: team-a-queue
                spec:
                  parallelism: 1
                  completions: 4
                  template:
                    spec:
                      restartPolicy: Never
                      nodeSelector: {%s}
                      containers:
                      - name: train
                        image: %s
                        resources:
                          requests:
                            cpu: 1
                            nvidia.com/gpu: %d
                          limits:
                            nvidia.com/gpu: %d
                """.formatted(name, nodeSelector, image, gpus, gpus));
    }

    private static String get(String name, String path) throws Exception {
        return kubectl.run(List.of("kubectl", "get", "job", name, "-n", "team-a", "-o", "jsonpath={" + path + "}")).ok().stdout();
    }

    @Test
    void aQueuedJobTakesNewSchedulingDirectivesButNotANewImageRequestsOrCompletions() throws Exception {
        // far more GPUs than the queue has: it waits, suspended, and never starts
        kubectl.run("kubectl apply -f " + job("waiting", 1000, "registry.example/train:1", "")).ok();
        assertThat(get("waiting", ".spec.suspend")).isEqualTo("true");

        kubectl.run("kubectl apply -f " + job("waiting", 1000, "registry.example/train:1", "pool: a")).ok();
        assertThat(get("waiting", ".spec.template.spec.nodeSelector.pool")).isEqualTo("a");

        Kubectl.Result newImage = kubectl.run("kubectl apply -f " + job("waiting", 1000, "registry.example/train:2", "pool: a"));
        assertThat(newImage.exitCode()).isNotZero();
        assertThat(newImage.stderr()).contains("is invalid", "spec.template", "field is immutable",
                "spec.template.spec.containers[0].image differs");

        Kubectl.Result moreGpus = kubectl.run("kubectl apply -f " + job("waiting", 2000, "registry.example/train:1", "pool: a"));
        assertThat(moreGpus.exitCode()).isNotZero();
        assertThat(moreGpus.stderr()).contains("spec.template", "field is immutable", "resources");

        Kubectl.Result completions = kubectl.run(List.of("kubectl", "patch", "job", "waiting", "-n", "team-a", "--type=merge",
                "-p", "{\"spec\":{\"completions\":5,\"parallelism\":5}}"));
        assertThat(completions.exitCode()).isNotZero();
        assertThat(completions.stderr()).contains("spec.completions", "field is immutable");

        assertThat(get("waiting", ".spec.template.spec.containers[0].image")).isEqualTo("registry.example/train:1");
        assertThat(get("waiting", ".spec.template.spec.containers[0].resources.requests.nvidia\\.com/gpu")).isEqualTo("1000");
        assertThat(get("waiting", ".spec.completions")).isEqualTo("4");
    }

    @Test
    void anAdmittedJobsTemplateDoesNotChangeButItsLabelsDo() throws Exception {
        kubectl.run("kubectl apply -f " + job("running", 1, "registry.example/train:1", "")).ok();
        await().atMost(PATIENCE).until(() -> get("running", ".spec.suspend"), "false"::equals);

        Kubectl.Result directive = kubectl.run("kubectl apply -f " + job("running", 1, "registry.example/train:1", "pool: b"));
        assertThat(directive.exitCode()).isNotZero();
        assertThat(directive.stderr()).contains("spec.template", "field is immutable", "not suspended");

        kubectl.run(List.of("kubectl", "label", "job", "running", "-n", "team-a", "owner=research")).ok();
        assertThat(get("running", ".metadata.labels.owner")).isEqualTo("research");
        assertThat(get("running", ".spec.template.spec.nodeSelector.pool")).isEmpty();
    }

    @Test
    void aWaitingJobsNewParallelismQueuesANewWorkloadWhileAnAdmittedOneKeepsItsQuota() throws Exception {
        kubectl.run("kubectl apply -f " + job("resized", 1000, "registry.example/train:1", "")).ok();
        await().atMost(PATIENCE).until(() -> workloadOf("resized", ".spec.podSets[0].count"), "1"::equals);
        kubectl.run(List.of("kubectl", "patch", "job", "resized", "-n", "team-a", "--type=merge", "-p", "{\"spec\":{\"parallelism\":3}}")).ok();
        await().atMost(PATIENCE).until(() -> workloadOf("resized", ".spec.podSets[0].count"), "3"::equals);
        assertThat(kubectl.run("kubectl get workloads -n team-a -o name").ok().stdout().lines()
                .filter(line -> line.contains("resized")).count()).as("one Workload, replaced").isEqualTo(1);

        kubectl.run("kubectl apply -f " + job("admitted-resized", 1, "registry.example/train:1", "")).ok();
        await().atMost(PATIENCE).until(() -> get("admitted-resized", ".spec.suspend"), "false"::equals);
        kubectl.run(List.of("kubectl", "patch", "job", "admitted-resized", "-n", "team-a", "--type=merge", "-p",
                "{\"spec\":{\"parallelism\":4}}")).ok();
        assertThat(get("admitted-resized", ".spec.parallelism")).isEqualTo("4");
        assertThat(workloadOf("admitted-resized", ".spec.podSets[0].count")).as("the admitted Workload keeps its quota").isEqualTo("1");
        assertThat(workloadOf("admitted-resized", ".status.conditions[?(@.type==\"Admitted\")].status")).isEqualTo("True");
    }

    @Test
    void aSuspendedJobMovesItsWorkloadToANewQueueButARunningOneCannotChangeQueues() throws Exception {
        kubectl.run("kubectl apply -f " + Files.writeString(home.resolve("other-queue.yaml"), """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: team-a-other, namespace: team-a}
                spec: {clusterQueue: team-b-cq}
                """)).ok();
        kubectl.run("kubectl apply -f " + job("moving", 1000, "registry.example/train:1", "")).ok();
        await().atMost(PATIENCE).until(() -> workloadOf("moving", ".spec.queueName"), "team-a-queue"::equals);
        String created = workloadOf("moving", ".metadata.creationTimestamp");

        kubectl.run(List.of("kubectl", "label", "job", "moving", "-n", "team-a", "kueue.x-k8s.io/queue-name=team-a-other", "--overwrite")).ok();

        await().atMost(PATIENCE).until(() -> workloadOf("moving", ".spec.queueName"), "team-a-other"::equals);
        assertThat(workloadOf("moving", ".metadata.creationTimestamp")).as("the same Workload, its place kept").isEqualTo(created);
        await().atMost(PATIENCE).until(() -> kubectl.run(List.of("kubectl", "get", "localqueue", "team-a-other", "-n", "team-a", "-o",
                "jsonpath={.status.pendingWorkloads}")).ok().stdout(), "1"::equals);

        kubectl.run("kubectl apply -f " + job("staying", 1, "registry.example/train:1", "")).ok();
        await().atMost(PATIENCE).until(() -> get("staying", ".spec.suspend"), "false"::equals);
        Kubectl.Result move = kubectl.run(List.of("kubectl", "label", "job", "staying", "-n", "team-a",
                "kueue.x-k8s.io/queue-name=team-a-other", "--overwrite"));
        assertThat(move.exitCode()).isNotZero();
        assertThat(move.stderr()).contains("metadata.labels[kueue.x-k8s.io/queue-name]", "field is immutable");
        assertThat(get("staying", ".metadata.labels.kueue\\.x-k8s\\.io/queue-name")).isEqualTo("team-a-queue");
    }

    /** A field of the Workload the named Job owns. */
    private static String workloadOf(String job, String path) throws Exception {
        return kubectl.run(List.of("kubectl", "get", "workloads", "-n", "team-a", "-o",
                "jsonpath={.items[?(@.metadata.ownerReferences[0].name==\"" + job + "\")]" + path + "}")).ok().stdout();
    }
}
