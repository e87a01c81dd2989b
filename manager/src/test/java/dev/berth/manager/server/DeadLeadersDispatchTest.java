package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
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
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader that recorded a dispatch and died before its create reached the worker cluster: the next
 * manager (a new epoch, over the same store) finds the attempt missing from the cluster's listings and
 * holds the workload as an unconfirmed create. With the default 60 s lease that hold lasted 70 s; once the
 * agent publishes that it accepted the new epoch (so it refuses the dead leader's late create) and a
 * listing after that does not show the attempt, the hold ends after the pod check, in seconds.
 * One worker cluster, a fabric8 CRUD mock API server; the test plays its agent.
 */
class DeadLeadersDispatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The default lease: an unconfirmed create is held lease + margin (70 s) without the agent's epoch. */
    private static final DispatchOptions OPTIONS =
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS);

    @TempDir
    Path dir;
    private Vertx vertx;
    private BerthManager manager;
    private final MemoryObjectStore store = new MemoryObjectStore(Clock.systemUTC());
    private KubernetesMockServer server;
    private KubernetesClient agent;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        manager = startManager();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        agent = server.createClient();
        try (var crd = DeadLeadersDispatchTest.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            agent.apiextensions().v1().customResourceDefinitions().load(crd).create();
        }
        heartbeat(0);
        apply("v1", "namespaces", null, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(KUEUE, "resourceflavors", null, "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"}}");
        apply(KUEUE, "multikueueconfigs", null, "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},"
                + "\"spec\":{\"clusters\":[\"roomy\"]}}");
        apply(KUEUE, "admissionchecks", null, "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        apply(KUEUE, "clusterqueues", null, "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":64}]}]}]}}");
        apply(KUEUE, "localqueues", "team-a", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        apply(KUEUE, "multikueueclusters", null, "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"roomy\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + kubeconfig() + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/roomy"), "Active")));
    }

    @AfterEach
    void stop() {
        manager.close();
        store.close();
        agent.close();
        server.destroy();
        vertx.close().await();
    }

    @Test
    void aDeadLeadersLostDispatchIsReleasedOnceTheAgentAcceptedTheNewEpochNotAfterTheLease() throws Exception {
        RemoteWorkload lost = dispatchedByALeaderThatThenDies();
        Instant newLeaderStarted = Instant.now();
        manager = startManager();
        awaitHeldAsUnconfirmed(lost);

        // what the agent publishes once it took any RemoteWorkload of the new leader
        heartbeat(manager.fencingEpoch());

        RemoteWorkload again = await().atMost(WAIT).until(this::attempt, r -> r != null
                && !r.getSpec().getAttemptId().equals(lost.getSpec().getAttemptId()));
        assertThat(again.getSpec().getFencingEpoch()).isEqualTo(manager.fencingEpoch());
        assertThat(Duration.between(newLeaderStarted, Instant.parse(again.getSpec().getLeaseRenewTime())))
                .as("dispatched again well before the lost copy's lease (60 s + 10 s margin) ran out").isLessThan(WAIT);
    }

    @Test
    void anAgentStillAtTheDeadLeadersEpochKeepsTheWorkloadHeld() throws Exception {
        RemoteWorkload lost = dispatchedByALeaderThatThenDies();
        manager = startManager();
        awaitHeldAsUnconfirmed(lost);

        // the agent accepted only the dead leader's epoch: its late create would still start
        heartbeat(lost.getSpec().getFencingEpoch());

        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() -> attempt() == null);
        assertThat(workload().path("status").path("dispatchHolds").path(0).path("reason").asText()).isEqualTo("DispatchUnconfirmed");
    }

    /** A job is dispatched; its leader dies; the create never reached the cluster (the object is gone there). */
    private RemoteWorkload dispatchedByALeaderThatThenDies() throws Exception {
        submitJob();
        RemoteWorkload first = await().atMost(WAIT).until(this::attempt, r -> r != null);
        manager.close();
        agent.resources(RemoteWorkload.class).inNamespace("team-a").withName(first.getMetadata().getName()).delete();
        await().atMost(WAIT).until(() -> attempt() == null);
        return first;
    }

    private void awaitHeldAsUnconfirmed(RemoteWorkload lost) {
        JsonNode held = await().atMost(WAIT).until(this::workload,
                w -> w != null && w.path("status").path("admissionChecks").path(0).path("message").asText().contains("never confirmed"));
        assertThat(held.path("status").path("admissionChecks").get(0).path("message").asText())
                .contains("attempt " + lost.getSpec().getAttemptId() + " on cluster roomy");
        assertThat(lost.getSpec().getFencingEpoch()).isLessThan(manager.fencingEpoch());
    }

    private BerthManager startManager() {
        BerthManager started = new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS, OPTIONS).leavingStoreOpen();
        started.start(vertx, "127.0.0.1", 0).await();
        return started;
    }

    // ---- the test as agent ---------------------------------------------------------------

    private void heartbeat(long acceptedEpoch) throws Exception {
        CapacityReport report = new CapacityReport();
        CapacityReport.FlavorCapacity a100 = new CapacityReport.FlavorCapacity();
        a100.setName("a100");
        a100.setNodes(2);
        a100.setFree(Map.of("nvidia.com/gpu", "8", "cpu", "64"));
        a100.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", "8", "cpu", "32"));
        report.getFlavors().add(a100);
        agent.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new LeaseBuilder()
                .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .addToAnnotations(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(report))
                .addToAnnotations(Annotations.AGENT_FENCING_EPOCH, Long.toString(acceptedEpoch)).endMetadata()
                .withNewSpec().withHolderIdentity("roomy-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                .createOr(NonDeletingOperation::update);
    }

    private RemoteWorkload attempt() {
        List<RemoteWorkload> items = agent.resources(RemoteWorkload.class).inNamespace("team-a").list().getItems();
        return items.isEmpty() ? null : items.get(0);
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob() throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,\"completions\":1,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"1\"}}}]}}}}";
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", job).statusCode()).isEqualTo(201);
    }

    private JsonNode workload() throws Exception {
        JsonNode list = get(KUEUE + "/namespaces/team-a/workloads");
        return list.path("items").size() == 0 ? null : list.path("items").get(0);
    }

    private Path kubeconfig() throws Exception {
        Path file = dir.resolve("roomy.kubeconfig");
        Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
                + server.url("/").replaceAll("/$", "") + "\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n"
                + "  context:\n    cluster: c\n    user: u\ncurrent-context: c\n");
        return file;
    }

    private void apply(String prefix, String plural, String namespace, String body) throws Exception {
        String path = (prefix.equals("v1") ? "/api/v1" : prefix) + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send("POST", path, withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private static String condition(JsonNode object, String type) {
        if (object == null) return null;
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
