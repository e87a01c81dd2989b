package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.UnservedFlavorOptions;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20, rule 2, end to end: quota held in a flavor that no connected worker cluster offers is
 * released after --unserved-flavor-timeout (the MultiKueue check turns Retry), another workload takes
 * the quota in its place, and the workload runs once a cluster offering the flavor joins. Worker
 * clusters are fabric8 CRUD mock API servers on loopback; the test plays their agents.
 */
class UnservedFlavorEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = ManagerClient.KUEUE;
    private static final Duration TIMEOUT = Duration.ofSeconds(4);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS)
                    .withUnservedFlavors(new UnservedFlavorOptions(TIMEOUT, Duration.ofSeconds(1))));
    @TempDir
    Path dir;
    private final List<FlavoredWorker> workers = new ArrayList<>();

    @AfterEach
    void stopWorkers() {
        workers.forEach(FlavoredWorker::close);
    }

    @Test
    void quotaInAFlavorNoClusterOffersIsReleasedTakenByAnotherAndTheWorkloadRunsOnceAClusterOffersIt() throws Exception {
        ManagerClient client = harness.client();
        FlavoredWorker spot = worker("a100-spot", "a100");
        queues(client, "a100-spot");
        submit(client, "first");
        awaitReserved(client, "first");
        submit(client, "second");

        JsonNode holding = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> dispatchMessage(w).startsWith("no connected worker cluster offers flavor h100"));
        assertThat(dispatchMessage(holding)).isEqualTo("no connected worker cluster offers flavor h100 (a100-spot offers a100); "
                + "its quota is released at " + dispatchMessage(holding).replaceAll(".* released at (\\S+) .*", "$1")
                + " (after 4s) unless a worker cluster offering it connects");
        assertThat(ManagerClient.condition(workload(client, "second"), "QuotaReserved")).isEqualTo("False");

        JsonNode released = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> "False".equals(ManagerClient.condition(w, "QuotaReserved")) && "True".equals(ManagerClient.condition(w, "Evicted")));
        assertThat(ManagerClient.findCondition(released, "Evicted").path("reason").asText()).isEqualTo("AdmissionCheck");
        assertThat(dispatchMessage(released)).isEqualTo("no connected worker cluster offers flavor h100 (a100-spot offers a100); "
                + "quota released after 4s, retrying");
        assertThat(released.path("status").path("admissionChecks").get(0).path("retryCount").asInt()).isEqualTo(1);
        awaitReserved(client, "second");
        assertThat(spot.attempts()).as("nothing was sent to a cluster without the flavor").isEmpty();

        JsonNode explanation = client.get(KUEUE + "/namespaces/team-a/workloads/" + workloadName(client, "first") + "/explain");
        assertThat(explanation.path("answer").asText()).isEqualTo("No connected worker cluster offers flavor h100 "
                + "(a100-spot offers a100); quota released after 4s, retrying.");
        JsonNode pending = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> ManagerClient.findCondition(w, "QuotaReserved").path("message").asText().contains("flavor h100 skipped"));
        assertThat(ManagerClient.findCondition(pending, "QuotaReserved").path("message").asText())
                .contains("flavor h100 skipped: no connected worker cluster offers it");

        FlavoredWorker h100 = worker("gpu-h", "h100");
        client.mergePatch(KUEUE + "/multikueueconfigs/workers", "{\"spec\":{\"clusters\":[\"a100-spot\",\"gpu-h\"]}}");
        connect(client, h100);
        // Both may have been released by now (each held h100 quota for longer than the timeout); whichever holds
        // the quota when gpu-h joins runs there, then the other: both run, on the cluster that offers h100.
        RemoteWorkload firstToRun = await().atMost(WAIT).until(() -> h100.attempts().stream().findFirst().orElse(null), r -> r != null);
        h100.report(firstToRun, "Succeeded");
        String other = firstToRun.getSpec().getWorkloadName().equals(workloadName(client, "first")) ? "second" : "first";
        RemoteWorkload secondToRun = await().atMost(WAIT).until(() -> h100.attempt(workloadName(client, other)), r -> r != null);
        assertThat(secondToRun.getSpec().getPodSets()).singleElement()
                .satisfies(p -> assertThat(p.getFlavors()).containsEntry("nvidia.com/gpu", "h100"));
        h100.report(secondToRun, "Running");
        await().atMost(WAIT).until(() -> "True".equals(ManagerClient.condition(workload(client, other), "Admitted")));
        JsonNode first = workload(client, "first");
        assertThat("True".equals(ManagerClient.condition(first, "Finished")) || "True".equals(ManagerClient.condition(first, "Admitted")))
                .as("the first workload ran").isTrue();
        assertThat(spot.attempts()).isEmpty();
    }

    @Test
    void quotaInAFlavorThatIsOfferedButFullIsKept() throws Exception {
        ManagerClient client = harness.client();
        worker("a100-spot", "a100");
        FlavoredWorker full = worker("gpu-h", "h100");
        full.freeGpus = 0;
        full.heartbeat();
        queues(client, "a100-spot", "gpu-h");
        submit(client, "first");
        awaitReserved(client, "first");

        JsonNode waiting = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> dispatchMessage(w).contains("gpu-h: no capacity"));
        await().pollDelay(TIMEOUT.plusSeconds(2)).atMost(WAIT).until(() -> true);

        JsonNode later = workload(client, "first");
        assertThat(ManagerClient.condition(later, "QuotaReserved")).isEqualTo("True");
        assertThat(ManagerClient.condition(later, "Evicted")).isNotEqualTo("True");
        assertThat(dispatchMessage(later)).isEqualTo(dispatchMessage(waiting));
    }

    // ---- the fleet ------------------------------------------------------------------------

    private FlavoredWorker worker(String name, String flavor) throws Exception {
        FlavoredWorker worker = new FlavoredWorker(name, flavor);
        workers.add(worker);
        return worker;
    }

    private void queues(ManagerClient client, String... clusters) throws Exception {
        client.create("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        for (String flavor : List.of("h100", "a100")) {
            client.create(KUEUE + "/resourceflavors", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\","
                    + "\"metadata\":{\"name\":\"" + flavor + "\"},\"spec\":{\"nodeLabels\":{\"gpu\":\"" + flavor + "\"}}}");
        }
        client.create(KUEUE + "/multikueueconfigs", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"MultiKueueConfig\","
                + "\"metadata\":{\"name\":\"workers\"},\"spec\":{\"clusters\":" + JSON.writeValueAsString(List.of(clusters)) + "}}");
        client.create(KUEUE + "/admissionchecks", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"AdmissionCheck\","
                + "\"metadata\":{\"name\":\"dispatch\"},\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{"
                + "\"apiGroup\":\"kueue.x-k8s.io\",\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        client.create(KUEUE + "/clusterqueues", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\","
                + "\"metadata\":{\"name\":\"cq\"},\"spec\":{\"namespaceSelector\":{},"
                + "\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"h100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":8}]}]}]}}");
        client.create(KUEUE + "/namespaces/team-a/localqueues", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"LocalQueue\","
                + "\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        for (FlavoredWorker worker : workers) connect(client, worker);
    }

    private void connect(ManagerClient client, FlavoredWorker worker) throws Exception {
        client.create(KUEUE + "/multikueueclusters", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"MultiKueueCluster\","
                + "\"metadata\":{\"name\":\"" + worker.name + "\"},\"spec\":{\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\","
                + "\"location\":\"" + worker.kubeconfig(dir) + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(ManagerClient.condition(client.get(KUEUE + "/multikueueclusters/" + worker.name), "Active")));
    }

    // ---- the user -------------------------------------------------------------------------

    private static void submit(ManagerClient client, String name) {
        client.create("/apis/batch/v1/namespaces/team-a/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"team-a\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,"
                + "\"completions\":1,\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
                + "\"image\":\"x\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"8\"}}}]}}}}");
    }

    private static void awaitReserved(ManagerClient client, String job) {
        await().atMost(WAIT).until(() -> "True".equals(ManagerClient.condition(workload(client, job), "QuotaReserved")));
    }

    /** The workload of the job (Kueue names it job-NAME-hash). */
    private static JsonNode workload(ManagerClient client, String job) {
        for (JsonNode item : client.items(KUEUE + "/namespaces/team-a/workloads")) {
            if (item.path("metadata").path("name").asText().startsWith("job-" + job + "-")) return item;
        }
        return null;
    }

    private static String workloadName(ManagerClient client, String job) {
        JsonNode workload = workload(client, job);
        return workload == null ? "" : workload.path("metadata").path("name").asText();
    }

    private static String dispatchMessage(JsonNode workload) {
        if (workload == null) return "";
        return workload.path("status").path("admissionChecks").path(0).path("message").asText();
    }

    /** A worker cluster offering one flavor: a fabric8 CRUD mock API server whose agent (this class) beats every second. */
    private static final class FlavoredWorker implements AutoCloseable {
        final String name;
        final String flavor;
        volatile int freeGpus = 16;
        private final KubernetesMockServer server;
        private final KubernetesClient agent;
        private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();

        FlavoredWorker(String name, String flavor) throws Exception {
            this.name = name;
            this.flavor = flavor;
            server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
            server.init(InetAddress.getByName("127.0.0.1"), 0);
            agent = server.createClient();
            try (var crd = FlavoredWorker.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
                agent.apiextensions().v1().customResourceDefinitions().load(new ByteArrayInputStream(crd.readAllBytes())).create();
            }
            heartbeat();
            beats.scheduleWithFixedDelay(() -> {
                try {
                    heartbeat();
                } catch (Exception e) {
                    // the next beat tries again
                }
            }, 1, 1, TimeUnit.SECONDS);
        }

        void heartbeat() throws Exception {
            CapacityReport report = new CapacityReport();
            CapacityReport.FlavorCapacity capacity = new CapacityReport.FlavorCapacity();
            capacity.setName(flavor);
            capacity.setNodes(2);
            capacity.setFree(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "64"));
            capacity.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", Integer.toString(Math.min(8, freeGpus)), "cpu", "32"));
            report.getFlavors().add(capacity);
            agent.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new LeaseBuilder()
                    .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                    .addToAnnotations(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(report)).endMetadata()
                    .withNewSpec().withHolderIdentity(name + "-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                    .createOr(NonDeletingOperation::update);
        }

        Path kubeconfig(Path dir) throws Exception {
            Path file = dir.resolve(name + ".kubeconfig");
            Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
                    + server.url("/").replaceAll("/$", "") + "\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n"
                    + "  context:\n    cluster: c\n    user: u\ncurrent-context: c\n");
            return file;
        }

        List<RemoteWorkload> attempts() {
            return agent.resources(RemoteWorkload.class).inNamespace("team-a").list().getItems();
        }

        RemoteWorkload attempt(String workload) {
            return attempts().stream().filter(r -> workload.equals(r.getSpec().getWorkloadName())).findFirst().orElse(null);
        }

        void report(RemoteWorkload remote, String phase) {
            RemoteWorkloadStatus status = new RemoteWorkloadStatus();
            status.setPhase(phase);
            status.setAttemptId(remote.getSpec().getAttemptId());
            status.setPodsRunning("Running".equals(phase) ? 1 : 0);
            status.setObjectStatus("Running".equals(phase) ? Map.of("active", 1) : Map.of("succeeded", 1));
            remote.setStatus(status);
            agent.resources(RemoteWorkload.class).inNamespace("team-a").resource(remote).updateStatus();
        }

        @Override
        public void close() {
            beats.shutdownNow();
            agent.close();
            server.destroy();
        }
    }
}
