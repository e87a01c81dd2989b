package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 rule 1 end to end: the manager over HTTP on loopback with two worker clusters, each a fabric8 CRUD
 * mock API server; the test plays the agents. A copy whose cluster lost its room after placement, so its agent
 * reports it Pending, is withdrawn after the start timeout under the drain's fence (its lease expired on
 * purpose), and only once its agent reports it stopped is the workload placed on the other cluster.
 */
class StartTimeoutEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(2);
    private static final String NO_ROOM = "insufficient nvidia.com/gpu: 4 requested, 0 free on matching nodes";

    /** Read once: the protocol jar may be rewritten by a concurrent install while tests run. */
    private static final byte[] CRD = readCrd();

    @TempDir
    Path dir;
    private Vertx vertx;
    private BerthManager manager;
    private final MemoryObjectStore store = new MemoryObjectStore(Clock.systemUTC());
    private final Map<String, KubernetesMockServer> servers = new HashMap<>();
    private final Map<String, KubernetesClient> agents = new HashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        manager = startManager();
        for (String cluster : List.of("small", "roomy")) {
            KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                    new KubernetesCrudDispatcher(), false);
            server.init(InetAddress.getByName("127.0.0.1"), 0);
            servers.put(cluster, server);
            KubernetesClient agent = server.createClient();
            agent.apiextensions().v1().customResourceDefinitions()
                    .load(new java.io.ByteArrayInputStream(CRD)).create();
            agents.put(cluster, agent);
        }
        heartbeat("small", 1);
        heartbeat("roomy", 8);
        apply("v1", "namespaces", null, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(KUEUE, "resourceflavors", null, "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"},"
                + "\"spec\":{\"nodeLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-40GB\"}}}");
        apply(KUEUE, "multikueueconfigs", null, "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},"
                + "\"spec\":{\"clusters\":[\"small\",\"roomy\"]}}");
        apply(KUEUE, "admissionchecks", null, "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        apply(KUEUE, "clusterqueues", null, "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":64}]}]}]}}");
        apply(KUEUE, "localqueues", "team-a", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        Path smallConfig = kubeconfig("small");
        apply(KUEUE, "multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"small\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + smallConfig + "\"}}}}");
        apply("v1", "secrets", KueueNamespace(), "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"roomy-kubeconfig\"},"
                + "\"stringData\":{\"kubeconfig\":" + JSON.writeValueAsString(Files.readString(kubeconfig("roomy"))) + "}}");
        apply(KUEUE, "multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"roomy\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"location\":\"roomy-kubeconfig\"}}}}");
        for (String cluster : List.of("small", "roomy")) {
            await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/" + cluster), "Active")));
        }
    }

    /** A manager over the test's store (left open when the manager closes, so a restart finds it), serving on loopback. */
    private BerthManager startManager() {
        return startManager(new DispatchOptions("test-manager", LEASE, Duration.ofMillis(100), PlacementOptions.DEFAULTS)
                .withStartTimeout(new StartTimeoutOptions(START_TIMEOUT, Duration.ofMinutes(10))));
    }

    private BerthManager startManager(DispatchOptions options) {
        BerthManager started = new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS, options).leavingStoreOpen();
        started.start(vertx, "127.0.0.1", 0).await();
        return started;
    }

    private static byte[] readCrd() {
        try (var in = StartTimeoutEndToEndTest.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String KueueNamespace() {
        return "kueue-system";
    }

    @AfterEach
    void stop() {
        manager.close();
        store.close();
        agents.values().forEach(KubernetesClient::close);
        servers.values().forEach(KubernetesMockServer::destroy);
        vertx.close().await();
    }

    @Test
    void aCopyItsWorkerCannotStartIsWithdrawnAndTheJobRunsOnTheOtherClusterOneCopyAtATime() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        String firstId = first.getSpec().getAttemptId();
        // after placement, other tenants fill roomy; small gains room
        heartbeat("roomy", 0);
        heartbeat("small", 8);
        pending("roomy", first);

        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));
        assertThat(fenced.getSpec().getAttemptId()).isEqualTo(firstId);
        // the copy on roomy is fenced but not confirmed stopped: nothing is placed elsewhere yet
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> attempt("small") == null);

        report("roomy", fenced, "Stopped", null);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("small"), r -> r != null);
        assertThat(second.getSpec().getAttemptId()).isNotEqualTo(firstId);
        await().atMost(WAIT).until(() -> attempt("roomy") == null);

        JsonNode workload = workload();
        JsonNode history = workload.path("status").path("dispatchHistory");
        assertThat(history).hasSize(2);
        assertThat(history.get(0).path("attemptId").asText()).isEqualTo(firstId);
        assertThat(history.get(0).path("cluster").asText()).isEqualTo("roomy");
        assertThat(history.get(0).path("outcome").asText()).isEqualTo("StartTimeout");
        assertThat(history.get(0).path("reason").asText()).matches("withdrawn from roomy after \\d+s: " + NO_ROOM);
        assertThat(history.get(1).path("cluster").asText()).isEqualTo("small");
        assertThat(workload.path("status").path("admissionChecks").get(0).path("message").asText())
                .startsWith("withdrawn from roomy after ").contains(NO_ROOM + "; placed on small: dispatched to cluster small");
        JsonNode explain = get(KUEUE + "/namespaces/team-a/workloads/" + workload.path("metadata").path("name").asText() + "/explain");
        assertThat(explain.toString()).contains("withdrawn from roomy");

        report("small", second, "Running", Map.of("active", 2));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        report("small", attempt("small"), "Succeeded", Map.of("succeeded", 2));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
    }

    @Test
    void aCopyTheAgentStartsBeforeTheExpiryReachesItStaysAndItsLeaseIsRenewed() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        heartbeat("roomy", 0);
        heartbeat("small", 8);
        pending("roomy", first);
        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));

        // the agent's pass read the copy before the expired lease was written, and admitted it
        report("roomy", fenced, "Running", Map.of("active", 2));
        await().atMost(WAIT).until(() -> !leaseExpired(attempt("roomy")));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        assertThat(attempt("roomy").getSpec().getAttemptId()).isEqualTo(first.getSpec().getAttemptId());
        assertThat(attempt("small")).isNull();
        assertThat(workload().path("status").path("dispatchHistory")).hasSize(1);
    }

    @Test
    void anAdmittedCopyWhosePodsNoNodeCanTakeIsWithdrawnAndPlacedOnTheOtherCluster() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        String firstId = first.getSpec().getAttemptId();
        // the agent admitted it, then other tenants' pods took the nodes first: the copy's pods are unschedulable
        admittedUnschedulable("roomy", first);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        heartbeat("roomy", 0);
        heartbeat("small", 8);

        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));
        assertThat(fenced.getSpec().getAttemptId()).isEqualTo(firstId);
        // still admitted on roomy (its pods wait for a node): the withdrawal waits for its agent to stop it
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> attempt("small") == null);
        assertThat(condition(workload(), "Admitted")).isEqualTo("True");

        report("roomy", fenced, "Stopped", null);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("small"), r -> r != null);
        assertThat(second.getSpec().getAttemptId()).isNotEqualTo(firstId);
        // Kueue's SyncAdmittedCondition: the MultiKueue check is Pending again, so the workload is not admitted; it keeps its quota
        assertThat(condition(workload(), "Admitted")).isEqualTo("False");
        assertThat(reason(workload(), "Admitted")).isEqualTo("UnsatisfiedChecks");
        assertThat(condition(workload(), "QuotaReserved")).isEqualTo("True");
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
        JsonNode history = workload().path("status").path("dispatchHistory");
        assertThat(history.get(0).path("outcome").asText()).isEqualTo("StartTimeout");
        assertThat(history.get(0).path("reason").asText())
                .matches("withdrawn from roomy after \\d+s: pod train-0 unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu\\.");

        report("small", second, "Running", Map.of("active", 2));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        assertThat(reason(workload(), "Admitted")).isEqualTo("Admitted");
    }

    /** The agent's report of a copy it admitted whose pods the cluster's scheduler found no node for. */
    private void admittedUnschedulable(String cluster, RemoteWorkload remote) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Admitted");
        status.setAttemptId(remote.getSpec().getAttemptId());
        status.setAdmittedTime(Instant.now().toString());
        status.setPodsPending(2);
        RemoteWorkloadStatus.PodProblem problem = new RemoteWorkloadStatus.PodProblem();
        problem.setPod("train-0");
        problem.setReason("Unschedulable");
        problem.setMessage("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
        status.setPodProblems(List.of(problem));
        remote.setStatus(status);
        agents.get(cluster).resources(RemoteWorkload.class).inNamespace("team-a").resource(remote).updateStatus();
    }

    private static boolean leaseExpired(RemoteWorkload remote) {
        Instant renewed = Instant.parse(remote.getSpec().getLeaseRenewTime());
        return renewed.plusSeconds(remote.getSpec().getLeaseDurationSeconds()).isBefore(Instant.now());
    }

    private void pending(String cluster, RemoteWorkload remote) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Pending");
        status.setReason(NO_ROOM);
        status.setMessage("waiting for capacity on cluster " + cluster);
        status.setAttemptId(remote.getSpec().getAttemptId());
        remote.setStatus(status);
        agents.get(cluster).resources(RemoteWorkload.class).inNamespace("team-a").resource(remote).updateStatus();
    }

    // ---- the test as agent ---------------------------------------------------------------

    private void heartbeat(String cluster, int freeGpus) throws Exception {
        PlayedAgent.heartbeat(agents.get(cluster), cluster, freeGpus);
    }

    private RemoteWorkload attempt(String cluster) {
        return PlayedAgent.attempt(agents.get(cluster));
    }

    private void report(String cluster, RemoteWorkload remote, String phase, Map<String, Object> objectStatus) {
        PlayedAgent.report(agents.get(cluster), remote, phase, objectStatus);
    }

    // ---- the user ---------------------------------------------------------------------------

    private String submitJob(int pods, int gpusPerPod) throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":" + pods + ",\"completions\":" + pods
                + ",\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"" + gpusPerPod + "\"}}}]}}}}";
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/json", job).statusCode()).isEqualTo(201);
        return "train";
    }

    private JsonNode workload() throws Exception {
        JsonNode list = get(KUEUE + "/namespaces/team-a/workloads");
        return list.path("items").size() == 0 ? null : list.path("items").get(0);
    }

    private Path kubeconfig(String cluster) throws Exception {
        String server = servers.get(cluster).url("/").replaceAll("/$", "");
        Path file = dir.resolve(cluster + ".kubeconfig");
        Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + server + "\n"
                + "users:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n"
                + "current-context: c\n");
        return file;
    }

    private void apply(String prefix, String plural, String namespace, String body) throws Exception {
        String path = (prefix.equals("v1") ? "/api/v1" : prefix) + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send("POST", path, "application/json", withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null, null).body());
    }

    private static String condition(JsonNode object, String type) {
        if (object == null) return null;
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    private static String reason(JsonNode object, String type) {
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("reason").asText();
        }
        return null;
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

}
