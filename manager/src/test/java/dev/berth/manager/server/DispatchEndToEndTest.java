package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.clusters.ResilienceOptions;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dispatch.FailoverOptions;
import dev.berth.manager.dispatch.HealthOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manager over HTTP on loopback dispatching to two worker clusters, each a fabric8 CRUD mock
 * API server; the test plays the agents (heartbeat Lease with capacity, RemoteWorkload status).
 */
class DispatchEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);

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
    /** How many RemoteWorkload creates, on any cluster, are still to be answered late (stored at once, answered after {@link #LATE}). */
    private final java.util.concurrent.atomic.AtomicInteger lateCreates = new java.util.concurrent.atomic.AtomicInteger();
    private static final Duration LATE = Duration.ofSeconds(2);

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        manager = startManager();
        for (String cluster : List.of("small", "roomy")) {
            KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                    new LateCreates(lateCreates), false);
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
        return startManager(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
    }

    private BerthManager startManager(DispatchOptions options) {
        BerthManager started = new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS, options).leavingStoreOpen();
        started.start(vertx, "127.0.0.1", 0).await();
        return started;
    }

    private static byte[] readCrd() {
        try (var in = DispatchEndToEndTest.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
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
    void aWorkloadRunsInTheClusterWithRoomAndFinishesThere() throws Exception {
        String job = submitJob(2, 1);
        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(attempt("small")).isNull();
        assertThat(remote.getSpec().getOrigin()).isEqualTo("test-manager");
        assertThat(remote.getSpec().getFencingEpoch()).isEqualTo(manager.fencingEpoch());
        assertThat(remote.getSpec().getPodSets()).singleElement().satisfies(p -> {
            assertThat(p.getCount()).isEqualTo(2);
            assertThat(p.getRequests()).containsEntry("nvidia.com/gpu", "1");
            assertThat(p.getFlavors()).containsEntry("nvidia.com/gpu", "a100");
        });
        assertThat(remote.getSpec().getFlavors()).singleElement().satisfies(f -> assertThat(f.getName()).isEqualTo("a100"));
        assertThat(remote.getSpec().getTemplate()).containsEntry("kind", "Job").doesNotContainKey("status");
        JsonNode pending = workload();
        assertThat(pending.path("status").path("admissionChecks").get(0).path("message").asText())
                .startsWith("dispatched to cluster roomy (attempt " + remote.getSpec().getAttemptId());
        assertThat(condition(pending, "Admitted")).isNotEqualTo("True");
        assertThat(agents.get("roomy").configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.FLAVOR_CATALOGUE).get()
                .getData().get(BerthCrds.FLAVOR_CATALOGUE_KEY)).contains("NVIDIA-A100-SXM4-40GB");

        report("roomy", remote, "Running", Map.of("active", 2));
        JsonNode admitted = await().atMost(WAIT).until(this::workload, w -> "True".equals(condition(w, "Admitted")));
        assertThat(admitted.path("status").path("clusterName").asText()).isEqualTo("roomy");
        assertThat(admitted.path("status").path("dispatch").path("phase").asText()).isEqualTo("Running");
        assertThat(admitted.path("status").path("dispatch").path("attemptId").asText()).isEqualTo(remote.getSpec().getAttemptId());
        await().atMost(WAIT).until(() -> get("/apis/batch/v1/namespaces/team-a/jobs/" + job).path("status").path("active").asInt() == 2);

        report("roomy", attempt("roomy"), "Succeeded", Map.of("succeeded", 2));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
        JsonNode queue = get(KUEUE + "/clusterqueues/cq");
        assertThat(queue.path("status").path("reservingWorkloads").asInt()).isZero();
    }

    @Test
    void aPartiallyAdmittedJobIsDispatchedWithTheAdmittedCountAsParallelismAndCompletions() throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"elastic\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"},\"annotations\":{\"kueue.x-k8s.io/job-min-parallelism\":\"2\","
                + "\"kueue.x-k8s.io/job-completions-equal-parallelism\":\"true\"}},\"spec\":{\"parallelism\":10,\"completions\":10,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"8\",\"nvidia.com/gpu\":\"1\"}}}]}}}}";
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/json", job).statusCode()).isEqualTo(201);

        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);

        assertThat(remote.getSpec().getPodSets()).singleElement().satisfies(p -> assertThat(p.getCount()).isEqualTo(8));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) remote.getSpec().getTemplate().get("spec");
        assertThat(spec).containsEntry("parallelism", 8).containsEntry("completions", 8);
    }

    @Test
    void aWorkloadWithNoJobBehindItReservesQuotaIsNotDispatchedAndExplainSaysThereIsNothingToRun() throws Exception {
        apply(KUEUE, "workloads", "team-a", "{\"kind\":\"Workload\",\"metadata\":{\"name\":\"bare\"},\"spec\":{"
                + "\"queueName\":\"lq\",\"podSets\":[{\"name\":\"main\",\"count\":2,\"template\":{\"spec\":{\"containers\":[{"
                + "\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}}}]}}");

        JsonNode reserved = await().atMost(WAIT).until(this::workload, w -> w != null
                && w.path("status").path("admissionChecks").path(0).path("message").asText().startsWith("nothing to run"));

        assertThat(condition(reserved, "QuotaReserved")).isEqualTo("True");
        assertThat(get(KUEUE + "/clusterqueues/cq").path("status").path("reservingWorkloads").asInt()).isEqualTo(1);
        assertThat(attempt("roomy")).isNull();
        assertThat(attempt("small")).isNull();
        JsonNode explanation = get(KUEUE + "/namespaces/team-a/workloads/bare/explain");
        assertThat(explanation.path("answer").asText()).contains("nothing to run: no Job, JobSet or Pod owns this Workload");
    }

    @Test
    void aWorkloadThatARestartedManagersFirstPassAdmitsIsDispatched() throws Exception {
        assertThat(send("PATCH", KUEUE + "/clusterqueues/cq", "application/merge-patch+json",
                "{\"spec\":{\"stopPolicy\":\"Hold\"}}").statusCode()).isEqualTo(200);
        submitJob(2, 1);
        await().atMost(WAIT).until(this::workload, w -> w != null && "False".equals(condition(w, "QuotaReserved")));
        manager.close();
        // What a leader leaves behind when it accepted "resume the queue" and died before its pass ran.
        ObjectKey queue = new ObjectKey(Resources.CLUSTER_QUEUES.resource(), "", "cq");
        ObjectNode resumed = store.get(queue).orElseThrow().object().deepCopy();
        ((ObjectNode) resumed.path("spec")).remove("stopPolicy");
        store.replace(queue, resumed, null);

        manager = startManager();
        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(remote.getSpec().getFencingEpoch()).isEqualTo(manager.fencingEpoch());
    }

    @Test
    void aCreateTheClusterNeverAcknowledgedHoldsTheWorkloadUntilTheLeaseItCarriedRunsOut() throws Exception {
        Duration lease = Duration.ofSeconds(3);
        Duration margin = Duration.ofSeconds(1);
        restartManager(quickToGiveUp(lease, margin));
        RemoteWorkload first = createAnsweredLate();

        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("roomy"),
                r -> r != null && !r.getSpec().getAttemptId().equals(first.getSpec().getAttemptId()));
        assertThat(leaseStamp(second)).as("the next attempt waits until the unacknowledged one's lease has surely run out")
                .isAfterOrEqualTo(leaseStamp(first).plus(lease).plus(margin));
        JsonNode events = get("/api/v1/namespaces/default/events");
        assertThat(events.path("items").findValuesAsText("reason")).contains("DispatchUnconfirmed");
        assertThat(workload().path("status").has("dispatchHolds")).as("the hold, lifted, is gone from the status").isFalse();
    }

    @Test
    void aRestartedManagerKeepsHoldingAWorkloadWhoseCreateWasNeverAcknowledged() throws Exception {
        Duration lease = Duration.ofSeconds(8);
        Duration margin = Duration.ofSeconds(1);
        DispatchOptions options = quickToGiveUp(lease, margin);
        restartManager(options);
        RemoteWorkload first = createAnsweredLate();
        JsonNode hold = workload().path("status").path("dispatchHolds").path(0);
        assertThat(hold.path("attemptId").asText()).isEqualTo(first.getSpec().getAttemptId());
        assertThat(hold.path("reason").asText()).isEqualTo("DispatchUnconfirmed");
        // the copy that landed is stale to this manager, which deletes it; a manager started while it is
        // still there would adopt it (it is the workload's only copy) instead of dispatching anew
        await().atMost(WAIT).until(() -> attempt("roomy") == null);

        restartManager(options);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("roomy"),
                r -> r != null && !r.getSpec().getAttemptId().equals(first.getSpec().getAttemptId()));
        assertThat(leaseStamp(second)).as("the restarted manager still waited for the unacknowledged attempt's lease")
                .isAfterOrEqualTo(leaseStamp(first).plus(lease).plus(margin));
    }

    /** Stops the manager and starts another over the same store, with these options. */
    private void restartManager(DispatchOptions options) {
        manager.close();
        manager = startManager(options);
    }

    /** Dispatch options that give a create up after 300 ms, with the given lease and margin. */
    private static DispatchOptions quickToGiveUp(Duration lease, Duration margin) {
        return new DispatchOptions("test-manager", lease, Duration.ofMillis(100), PlacementOptions.DEFAULTS,
                new FailoverOptions(Duration.ofSeconds(20), margin, HealthOptions.DEFAULTS),
                new ResilienceOptions(Duration.ofMillis(300), 1, Duration.ofMillis(50), 50f, 10, Duration.ofSeconds(10), 8));
    }

    /** Submits a job whose first create the cluster stores at once but answers after the manager gave up; waits for the hold. */
    private RemoteWorkload createAnsweredLate() throws Exception {
        lateCreates.set(1);
        submitJob(2, 1);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        JsonNode held = await().atMost(WAIT).until(this::workload,
                w -> w.path("status").path("admissionChecks").path(0).path("message").asText().contains("never confirmed"));
        assertThat(held.path("status").path("admissionChecks").get(0).path("message").asText())
                .contains("attempt " + first.getSpec().getAttemptId() + " on cluster roomy", "dispatched again once its lease has run out");
        return first;
    }

    private static java.time.Instant leaseStamp(RemoteWorkload attempt) {
        return java.time.Instant.parse(attempt.getSpec().getLeaseRenewTime());
    }

    @Test
    void aWorkloadThatFitsNowhereStaysPendingWithEveryClustersReason() throws Exception {
        submitJob(1, 9);
        JsonNode workload = await().atMost(WAIT).until(this::workload, w -> w != null
                && w.path("status").path("admissionChecks").path(0).path("message").asText().startsWith("no worker cluster"));
        assertThat(workload.path("status").path("admissionChecks").get(0).path("message").asText()).isEqualTo(
                "no worker cluster can start the workload now: small: no capacity: insufficient nvidia.com/gpu: 9 requested, 1 free; "
                        + "roomy: no capacity: insufficient nvidia.com/gpu: 9 requested, 8 free");
        heartbeat("roomy", 16);
        await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
    }

    @Test
    void deletingTheJobDeletesTheRemoteAttempt() throws Exception {
        String job = submitJob(1, 1);
        await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(send("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/" + job, null, null).statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
    }

    @Test
    void anAttemptOfAnUnknownWorkloadIsGarbageCollected() {
        RemoteWorkload ghost = new RemoteWorkload();
        ghost.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("ghost")
                .addToLabels(Labels.ORIGIN, "test-manager").addToLabels(Labels.ATTEMPT_ID, "x").build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test-manager");
        spec.setWorkloadName("ghost");
        spec.setAttemptId("x");
        ghost.setSpec(spec);
        agents.get("small").resources(RemoteWorkload.class).inNamespace("team-a").resource(ghost).create();
        await().atMost(WAIT).until(() -> attempt("small") == null);
    }

    @Test
    void aClusterWithABadKubeconfigPathIsInactiveAndSecretsCannotBeReadBack() throws Exception {
        apply(KUEUE, "multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"bad\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"/no/such/kubeconfig\"}}}}");
        JsonNode bad = await().atMost(WAIT).until(() -> get(KUEUE + "/multikueueclusters/bad"), c -> "False".equals(condition(c, "Active")));
        JsonNode active = bad.path("status").path("conditions").get(0);
        assertThat(active.path("reason").asText()).isEqualTo("ClientConnectionFailed");
        assertThat(active.path("message").asText()).contains("/no/such/kubeconfig");

        assertThat(send("GET", "/api/v1/namespaces/kueue-system/secrets/roomy-kubeconfig", null, null).statusCode()).isEqualTo(403);
        HttpResponse<String> list = send("GET", "/api/v1/namespaces/kueue-system/secrets", null, null);
        assertThat(list.statusCode()).isEqualTo(403);
        assertThat(list.body()).doesNotContain("clusters");
        assertThat(condition(get(KUEUE + "/admissionchecks/dispatch"), "Active")).isEqualTo("True");
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

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A worker cluster's API server whose next {@code late} RemoteWorkload creates take effect at once but are answered late. */
    private static final class LateCreates extends KubernetesCrudDispatcher {
        private final java.util.concurrent.atomic.AtomicInteger late;

        LateCreates(java.util.concurrent.atomic.AtomicInteger late) {
            this.late = late;
        }

        @Override
        public io.fabric8.mockwebserver.http.MockResponse dispatch(io.fabric8.mockwebserver.http.RecordedRequest request) {
            io.fabric8.mockwebserver.http.MockResponse response = super.dispatch(request);
            boolean create = "POST".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads");
            if (create && late.getAndUpdate(n -> Math.max(0, n - 1)) > 0) response.setBodyDelay(LATE);
            return response;
        }
    }
}
