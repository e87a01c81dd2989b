package dev.berth.manager.server;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20, rule 4, end to end: the manager over HTTP on loopback, one worker cluster as a fabric8 CRUD
 * mock API server whose agent the test plays. A high-priority job preempts a running one; the preempted
 * copy's pod is held in Terminating by a finalizer. The preempted workload keeps its quota (Evicted=True,
 * QuotaReserved=True) and the preemptor's copy is not created until that pod is gone; then the quota is
 * released and the preemptor dispatched.
 */
class PreemptedCopyStopEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String HOLD = "test.berth.dev/hold";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty()
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));

    @TempDir
    Path dir;
    private KubernetesMockServer server;
    private KubernetesClient agent;
    private ManagerClient client;

    @BeforeEach
    void start() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        agent = server.createClient();
        try (var crd = getClass().getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            agent.apiextensions().v1().customResourceDefinitions().load(crd).create();
        }
        heartbeat(8);
        client = harness.client();
        client.create("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        kueue("workloadpriorityclasses", null, "{\"kind\":\"WorkloadPriorityClass\",\"metadata\":{\"name\":\"low\"},\"value\":0}");
        kueue("workloadpriorityclasses", null, "{\"kind\":\"WorkloadPriorityClass\",\"metadata\":{\"name\":\"high\"},\"value\":100}");
        kueue("resourceflavors", null, "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"},"
                + "\"spec\":{\"nodeLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-40GB\"}}}");
        kueue("multikueueconfigs", null, "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},\"spec\":{\"clusters\":[\"gpu\"]}}");
        kueue("admissionchecks", null, "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        kueue("clusterqueues", null, "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"preemption\":{\"withinClusterQueue\":\"LowerPriority\"},"
                + "\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":8}]}]}]}}");
        kueue("localqueues", "team-a", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        kueue("multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"gpu\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + kubeconfig() + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(condition(client.get(KUEUE + "/multikueueclusters/gpu"), "Active")));
    }

    @AfterEach
    void stop() {
        agent.close();
        server.destroy();
    }

    @Test
    void thePreemptorIsDispatchedOnlyOnceThePreemptedCopyStoppedAndItsQuotaWasReleased() throws Exception {
        submitJob("low", "low");
        RemoteWorkload low = await().atMost(WAIT).until(() -> remoteOf("low"), r -> r != null);
        String lowAttempt = low.getSpec().getAttemptId();
        runningPodHeldByFinalizer(low);
        report(low, "Running");
        await().atMost(WAIT).until(() -> "True".equals(condition(workloadOf("low"), "Admitted")));

        submitJob("high", "high");
        JsonNode evicted = await().atMost(WAIT).until(() -> workloadOf("low"), w -> "True".equals(condition(w, "Evicted")));
        assertThat(ManagerClient.findCondition(evicted, "Evicted").path("reason").asText()).isEqualTo("Preempted");
        assertThat(condition(evicted, "QuotaReserved")).as("the preempted workload keeps its quota while its copy stops").isEqualTo("True");

        // the manager deletes the preempted attempt under its id; its pod stays Terminating (the finalizer)
        await().atMost(WAIT).until(() -> remoteOf("low") == null);
        await().atMost(WAIT).until(() -> pod("low-0").getMetadata().getDeletionTimestamp() != null);
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> remoteOf("high") == null
                && "True".equals(condition(workloadOf("low"), "QuotaReserved"))
                && !"True".equals(condition(workloadOf("high"), "QuotaReserved")));
        assertThat(ManagerClient.findCondition(workloadOf("high"), "QuotaReserved").path("message").asText())
                .contains("Pending the preemption of 1 workload(s)");

        // the pod finishes terminating: the stop is confirmed, the quota released, the preemptor dispatched
        agent.pods().inNamespace("team-a").withName("low-0").edit(p -> new PodBuilder(p).editMetadata().withFinalizers().endMetadata().build());
        RemoteWorkload high = await().atMost(WAIT).until(() -> remoteOf("high"), r -> r != null);
        assertThat(pod("low-0")).as("the preempted copy's pod is gone before the preemptor's copy exists").isNull();
        JsonNode released = workloadOf("low");
        assertThat(condition(released, "QuotaReserved")).isEqualTo("False");
        assertThat(condition(released, "Requeued")).isEqualTo("True");
        assertThat(high.getSpec().getAttemptId()).isNotEqualTo(lowAttempt);
        assertThat(remoteOf("low")).as("the preempted workload waits for quota, it is not dispatched again").isNull();
    }

    // ---- the test as agent ---------------------------------------------------------------

    private void heartbeat(int freeGpus) throws Exception {
        CapacityReport report = new CapacityReport();
        CapacityReport.FlavorCapacity a100 = new CapacityReport.FlavorCapacity();
        a100.setName("a100");
        a100.setNodes(1);
        a100.setFree(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "64"));
        a100.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "64"));
        report.getFlavors().add(a100);
        agent.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new LeaseBuilder()
                .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .addToAnnotations(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(report)).endMetadata()
                .withNewSpec().withHolderIdentity("gpu-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                .createOr(NonDeletingOperation::update);
    }

    /** The copy's pod, labelled with its attempt as the agent labels it, running and held in Terminating by a finalizer once deleted. */
    private void runningPodHeldByFinalizer(RemoteWorkload remote) {
        agent.pods().inNamespace("team-a").resource(new PodBuilder().withNewMetadata().withName("low-0").withNamespace("team-a")
                .addToLabels(Labels.ATTEMPT_ID, remote.getSpec().getAttemptId())
                .addToLabels(Labels.REMOTE_WORKLOAD, remote.getMetadata().getName()).withFinalizers(HOLD).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("x").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
    }

    private io.fabric8.kubernetes.api.model.Pod pod(String name) {
        return agent.pods().inNamespace("team-a").withName(name).get();
    }

    private void report(RemoteWorkload remote, String phase) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase(phase);
        status.setAttemptId(remote.getSpec().getAttemptId());
        status.setPodsRunning(1);
        status.setObjectStatus(Map.of("active", 1));
        remote.setStatus(status);
        agent.resources(RemoteWorkload.class).inNamespace("team-a").resource(remote).updateStatus();
    }

    /** The RemoteWorkload on the worker for the job's workload, or null. */
    private RemoteWorkload remoteOf(String job) throws Exception {
        JsonNode workload = workloadOf(job);
        if (workload == null) return null;
        String name = workload.path("metadata").path("name").asText();
        List<RemoteWorkload> items = agent.resources(RemoteWorkload.class).inNamespace("team-a").list().getItems();
        return items.stream().filter(r -> name.equals(r.getSpec().getWorkloadName())).findFirst().orElse(null);
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob(String name, String priorityClass) {
        client.create("/apis/batch/v1/namespaces/team-a/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"team-a\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\","
                + "\"kueue.x-k8s.io/priority-class\":\"" + priorityClass + "\"}},\"spec\":{\"parallelism\":1,\"completions\":1,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"8\"}}}]}}}}");
    }

    private JsonNode workloadOf(String job) {
        for (JsonNode workload : client.items(KUEUE + "/namespaces/team-a/workloads")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (job.equals(owner.path("name").asText())) return workload;
            }
        }
        return null;
    }

    private void kueue(String plural, String namespace, String body) {
        String path = KUEUE + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
        client.create(path, "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1));
    }

    private Path kubeconfig() throws Exception {
        String url = server.url("/").replaceAll("/$", "");
        Path file = dir.resolve("gpu.kubeconfig");
        Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + url + "\n"
                + "users:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n"
                + "current-context: c\n");
        return file;
    }
}
