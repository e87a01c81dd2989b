package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runbook commands, verbatim, through the real kubectl against a manager started here with the
 * example queues (without their MultiKueue check, so workloads are admitted in the manager alone)
 * and one submitted job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsKubectl
class KubectlRunbookTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;
    static String workload;

    @BeforeAll
    static void startManagerWithQueuesAndAJob() throws Exception {
        kubectl.run("kubectl create -f " + Path.of("..", "examples", "jobs", "sample-job.yaml").toAbsolutePath()).ok();
        workload = await().atMost(Duration.ofSeconds(20)).until(
                () -> kubectl.run("kubectl get workloads -n team-a -o jsonpath={.items[0].metadata.name}").stdout(), s -> !s.isBlank());
    }

    @Test
    @Order(1)
    void apiResourcesListsKueueKindsWithShortNames() throws Exception {
        String out = kubectl.run("kubectl api-resources --api-group=kueue.x-k8s.io").ok().stdout();
        System.out.println(out);
        assertThat(out).containsPattern("clusterqueues\\s+cq\\s+kueue.x-k8s.io/v1beta2\\s+false\\s+ClusterQueue")
                .containsPattern("localqueues\\s+lq,queue,queues\\s+kueue.x-k8s.io/v1beta2\\s+true\\s+LocalQueue")
                .containsPattern("workloads\\s+wl\\s+kueue.x-k8s.io/v1beta2\\s+true\\s+Workload")
                .containsPattern("resourceflavors\\s+rf,flavor,flavors\\s+kueue.x-k8s.io/v1beta2\\s+false\\s+ResourceFlavor");
    }

    @Test
    @Order(2)
    void getWorkloadsAcrossNamespaces() throws Exception {
        String out = await().atMost(Duration.ofSeconds(20)).until(() -> kubectl.run("kubectl get workloads -A").ok().stdout(),
                s -> s.contains("True"));
        System.out.println(out);
        assertThat(out.lines().findFirst().orElse("")).containsPattern("NAMESPACE\\s+NAME\\s+QUEUE\\s+RESERVED IN\\s+ADMITTED\\s+FINISHED\\s+AGE");
        assertThat(out).containsPattern("team-a\\s+" + workload + "\\s+team-a-queue\\s+team-a-cq\\s+True\\s+\\d+s");
    }

    @Test
    @Order(3)
    void getClusterQueuesWide() throws Exception {
        String out = kubectl.run("kubectl get clusterqueues -o wide").ok().stdout();
        System.out.println(out);
        assertThat(out.lines().findFirst().orElse(""))
                .containsPattern("NAME\\s+COHORT\\s+STRATEGY\\s+FLAVORS\\s+PENDING WORKLOADS\\s+ADMITTED WORKLOADS");
        assertThat(out).containsPattern("team-a-cq\\s+gpu-pool\\s+BestEffortFIFO\\s+default-cpu,a100,h100\\s+0\\s+1");
    }

    @Test
    @Order(4)
    void getLocalQueuesAcrossNamespaces() throws Exception {
        String out = kubectl.run("kubectl get localqueues -A").ok().stdout();
        System.out.println(out);
        assertThat(out.lines().findFirst().orElse("")).containsPattern("NAMESPACE\\s+NAME\\s+CLUSTERQUEUE\\s+PENDING WORKLOADS\\s+ADMITTED WORKLOADS");
        assertThat(out).containsPattern("team-a\\s+team-a-queue\\s+team-a-cq\\s+0\\s+1");
    }

    @Test
    @Order(5)
    void describeWorkloadShowsStatusAndEvents() throws Exception {
        String out = kubectl.run("kubectl describe workload " + workload + " -n team-a").ok().stdout();
        System.out.println(out);
        assertThat(out).contains("Name:", workload, "Namespace:", "team-a", "Queue Name:", "team-a-queue")
                .containsPattern("Normal\\s+QuotaReserved\\s+.*Quota reserved in ClusterQueue team-a-cq, wait time since queued was \\d+s")
                .containsPattern("Normal\\s+Admitted\\s+.*Admitted by ClusterQueue team-a-cq, wait time since reservation was \\d+s");
    }

    @Test
    @Order(6)
    void describeClusterQueueShowsStatus() throws Exception {
        String out = kubectl.run("kubectl describe clusterqueue team-a-cq").ok().stdout();
        System.out.println(out);
        assertThat(out).contains("Name:", "team-a-cq", "Cohort Name:", "gpu-pool", "Admitted Workloads:", "Kind:", "ClusterQueue",
                        "Observed Generation:")
                .containsPattern("Normal\\s+Admitted\\s+.*Admitted workload team-a/" + workload);
    }

    @Test
    @Order(6)
    void describeLocalQueueShowsStatusAndEvents() throws Exception {
        String out = kubectl.run("kubectl describe localqueue team-a-queue -n team-a").ok().stdout();
        System.out.println(out);
        assertThat(out).contains("Name:", "team-a-queue", "Namespace:", "team-a", "Cluster Queue:", "team-a-cq", "Kind:", "LocalQueue")
                .containsPattern("Normal\\s+Admitted\\s+.*Admitted workload team-a/" + workload);
    }

    @Test
    @Order(7)
    void serverSideApplyDryRunStoresNothing() throws Exception {
        Path queues = home.resolve("queues.yaml");
        try (Stream<Path> files = Files.list(Path.of("..", "examples", "queues"))) {
            Files.writeString(queues, files.sorted().map(KubectlRunbookTest::read).collect(Collectors.joining("\n---\n")));
        }
        String before = kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.metadata.resourceVersion}").ok().stdout();
        String out = kubectl.run("kubectl apply --server-side --dry-run=server -f queues.yaml".replace("queues.yaml", queues.toString())).ok().stdout();
        System.out.println(out);
        assertThat(out).contains("clusterqueue.kueue.x-k8s.io/team-a-cq serverside-applied (server dry run)",
                "localqueue.kueue.x-k8s.io/team-a-queue serverside-applied (server dry run)");
        assertThat(kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.metadata.resourceVersion}").ok().stdout()).isEqualTo(before);
        assertThat(kubectl.run("kubectl get clusterqueue team-a-cq -o yaml").ok().stdout()).doesNotContain("multikueue");
    }

    @Test
    @Order(8)
    void patchStopsTheClusterQueue() throws Exception {
        String generation = kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.metadata.generation}").ok().stdout();
        String out = kubectl.run("kubectl patch clusterqueue team-a-cq --type=merge -p '{\"spec\":{\"stopPolicy\":\"Hold\"}}'").ok().stdout();
        System.out.println(out);
        assertThat(out).contains("clusterqueue.kueue.x-k8s.io/team-a-cq patched");
        assertThat(kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.spec.stopPolicy}").ok().stdout()).isEqualTo("Hold");
        assertThat(Long.parseLong(kubectl.run("kubectl get cq team-a-cq -o jsonpath={.metadata.generation}").ok().stdout()))
                .isEqualTo(Long.parseLong(generation) + 1);
        kubectl.run("kubectl patch clusterqueue team-a-cq --type=merge -p '{\"spec\":{\"stopPolicy\":\"None\"}}'").ok();
    }

    @Test
    @Order(9)
    void getEventsSortedByLastTimestamp() throws Exception {
        String out = kubectl.run("kubectl get events -n team-a --sort-by=.lastTimestamp").ok().stdout();
        System.out.println(out);
        assertThat(out.lines().findFirst().orElse("")).containsPattern("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE");
        assertThat(out).containsPattern("Normal\\s+QuotaReserved\\s+workload/" + workload + "\\s+Quota reserved in ClusterQueue team-a-cq")
                .containsPattern("Normal\\s+Admitted\\s+workload/" + workload + "\\s+Admitted by ClusterQueue team-a-cq");
        assertThat(out.indexOf("QuotaReserved")).isLessThan(out.indexOf("Admitted by"));
    }

    @Test
    @Order(10)
    void describeClusterQueueShowsItsStopAndRestart() throws Exception {
        String out = kubectl.run("kubectl describe clusterqueue team-a-cq").ok().stdout();
        System.out.println(out);
        assertThat(out).containsPattern("Warning\\s+Stopped\\s+.*Can't admit new workloads: is stopped \\(stopPolicy Hold\\)")
                .containsPattern("Normal\\s+Ready\\s+.*Can admit new workloads \\(was Stopped\\)");
    }

    @Test
    @Order(11)
    void applyOfAV1beta1ClusterQueuePrintsTheDeprecationWarnings() throws Exception {
        Path legacy = home.resolve("legacy-cq.yaml");
        Files.writeString(legacy, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata:
                  name: legacy-cq
                spec:
                  cohort: gpu-pool
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: ["cpu"]
                    flavors:
                    - name: default-cpu
                      resources:
                      - name: cpu
                        nominalQuota: "1"
                """);
        Kubectl.Result result = kubectl.run("kubectl apply -f " + legacy).ok();
        System.out.println(result.stdout() + result.stderr());
        assertThat(result.stdout()).contains("clusterqueue.kueue.x-k8s.io/legacy-cq created");
        assertThat(result.stderr()).contains("Warning: kueue.x-k8s.io/v1beta1 ClusterQueue is deprecated", "Warning: spec.cohort")
                .contains("cohortName");
        assertThat(kubectl.run("kubectl get cq legacy-cq -o jsonpath={.apiVersion}/{.spec.cohortName}/{.spec.cohort}").ok().stdout())
                .isEqualTo("kueue.x-k8s.io/v1beta2/gpu-pool/");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
