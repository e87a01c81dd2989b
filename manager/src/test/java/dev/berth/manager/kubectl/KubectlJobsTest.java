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

/**
 * Jobs and pods on the manager through the real kubectl, with the example queues admitting in the
 * manager alone: kube's Job and Pod table columns, the Job following its Workload (suspended while
 * it waits, unsuspended once admitted, selector generated from its uid) and Kueue's events on the Job
 * in {@code kubectl describe job}.
 */
@NeedsKubectl
class KubectlJobsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    static String job(String name, int gpus) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: team-a
                  labels:
                    kueue.x-k8s.io/queue-name: team-a-queue
                spec:
                  parallelism: 1
                  completions: 1
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: train
                        image: registry.example/train:1
                        resources:
                          requests:
                            cpu: 1
                            nvidia.com/gpu: %d
                          limits:
                            nvidia.com/gpu: %d
                """.formatted(name, gpus, gpus);
    }

    private static void create(String name, String yaml) throws Exception {
        Path file = Files.writeString(home.resolve(name + ".yaml"), yaml);
        kubectl.run("kubectl create -f " + file).ok();
    }

    private static String jsonpath(String object, String path) throws Exception {
        java.util.List<String> words = new java.util.ArrayList<>(java.util.List.of("kubectl", "get"));
        words.addAll(java.util.List.of(object.split(" ")));
        words.addAll(java.util.List.of("-n", "team-a", "-o", "jsonpath={" + path + "}"));
        return kubectl.run(words).ok().stdout();
    }

    @Test
    void anAdmittedJobIsUnsuspendedAndShowsKubesColumns() throws Exception {
        create("admitted", job("admitted", 1));
        await().atMost(PATIENCE).until(() -> jsonpath("job admitted", ".spec.suspend"), "false"::equals);
        String uid = jsonpath("job admitted", ".metadata.uid");

        String table = kubectl.run("kubectl get jobs admitted -n team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE$");
        assertThat(table).containsPattern("admitted\\s+Running\\s+0/1\\s+\\d+s");
        String wide = kubectl.run("kubectl get jobs admitted -n team-a -o wide").ok().stdout();
        assertThat(wide.lines().findFirst().orElse(""))
                .containsPattern("NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR");
        assertThat(wide).contains("train", "registry.example/train:1", "batch.kubernetes.io/controller-uid=" + uid);
        assertThat(jsonpath("job admitted", ".spec.template.metadata.labels.batch\\.kubernetes\\.io/job-name")).isEqualTo("admitted");
        assertThat(jsonpath("job admitted", ".status.conditions[?(@.type==\"Suspended\")].reason")).isEqualTo("JobResumed");
    }

    @Test
    void aJobWaitingForQuotaStaysSuspended() throws Exception {
        create("waits", job("waits", 64));

        String table = await().atMost(PATIENCE).until(() -> kubectl.run("kubectl get jobs waits -n team-a").ok().stdout(),
                out -> out.contains("Suspended"));
        assertThat(table).containsPattern("waits\\s+Suspended\\s+0/1\\s+\\d+s");
        assertThat(jsonpath("job waits", ".spec.suspend")).isEqualTo("true");
        assertThat(jsonpath("job waits", ".status.conditions[?(@.type==\"Suspended\")].reason")).isEqualTo("JobSuspended");
    }

    @Test
    void aFinishedJobShowsCompleteAndHowLongItRan() throws Exception {
        create("finished", job("finished", 1));
        await().atMost(PATIENCE).until(() -> jsonpath("job finished", ".spec.suspend"), "false"::equals);
        String status = "{\"status\":{\"startTime\":\"2026-01-01T00:00:00Z\",\"completionTime\":\"2026-01-01T00:01:05Z\","
                + "\"succeeded\":1,\"conditions\":[{\"type\":\"SuccessCriteriaMet\",\"status\":\"True\"},"
                + "{\"type\":\"Complete\",\"status\":\"True\",\"reason\":\"CompletionsReached\"}]}}";
        kubectl.run(java.util.List.of("kubectl", "patch", "job", "finished", "-n", "team-a", "--subresource=status",
                "--type=merge", "-p", status)).ok();

        String table = kubectl.run("kubectl get jobs finished -n team-a").ok().stdout();
        assertThat(table).containsPattern("finished\\s+Complete\\s+1/1\\s+65s\\s+\\d+s");
    }

    @Test
    void describeJobShowsKueuesEventsForIt() throws Exception {
        create("described", job("described", 1));
        await().atMost(PATIENCE).until(() -> jsonpath("job described", ".spec.suspend"), "false"::equals);
        String workload = await().atMost(PATIENCE).until(
                () -> jsonpath("workloads", ".items[?(@.metadata.ownerReferences[0].name==\"described\")].metadata.name"), s -> !s.isBlank());

        String out = await().atMost(PATIENCE).until(() -> kubectl.run("kubectl describe job described -n team-a").ok().stdout(),
                s -> s.contains("Started"));
        assertThat(out).containsPattern("Normal\\s+CreatedWorkload\\s+.*Created Workload: team-a/" + workload)
                .containsPattern("Normal\\s+Started\\s+.*Admitted by clusterQueue team-a-cq")
                .containsPattern("Selector:\\s+batch.kubernetes.io/controller-uid=");
    }

    @Test
    void aQueuedPodIsPendingBehindKueuesSchedulingGate() throws Exception {
        create("gated", """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: gated
                  namespace: team-a
                  labels:
                    kueue.x-k8s.io/queue-name: team-a-queue
                spec:
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: registry.example/train:1
                    resources:
                      requests:
                        cpu: 1
                """);

        String table = kubectl.run("kubectl get pods gated -n team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE$");
        assertThat(table).containsPattern("gated\\s+0/1\\s+SchedulingGated\\s+0\\s+\\d+s");
        assertThat(jsonpath("pod gated", ".status.phase")).isEqualTo("Pending");
        assertThat(jsonpath("pod gated", ".spec.schedulingGates[0].name")).isEqualTo("kueue.x-k8s.io/admission");
        String wide = kubectl.run("kubectl get pods gated -n team-a -o wide").ok().stdout();
        assertThat(wide.lines().findFirst().orElse("")).containsPattern("IP\\s+NODE\\s+NOMINATED NODE\\s+READINESS GATES");
    }
}
