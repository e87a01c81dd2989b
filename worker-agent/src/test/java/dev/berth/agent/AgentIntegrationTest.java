package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.gpuNode;
import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The agent against fabric8's CRUD mock API server in-process. Nothing plays kubelet or Job
 * controller: the tests set the Job's status and create pods themselves. The fencing test runs last
 * because it raises the agent's epoch mark for everyone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentIntegrationTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String L4 = "NVIDIA-L4";
    private static final String H100 = Fixtures.H100;

    private KubernetesMockServer server;
    private Vertx vertx;
    private KubernetesClient client;
    private Agent agent;
    private int port;
    private final Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.now());
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startClusterAndAgent() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        vertx = Vertx.vertx();
        client = server.createClient(new Vertx5HttpClientFactory(vertx));
        try (InputStream crd = getClass().getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            client.apiextensions().v1().customResourceDefinitions().resource(
                    client.apiextensions().v1().customResourceDefinitions().load(crd).item()).create();
        }
        client.nodes().resource(gpuNode("a100-1", A100, 8).build()).create();
        client.nodes().resource(gpuNode("a100-2", A100, 8).build()).create();
        client.nodes().resource(gpuNode("h100-1", H100, 8).build()).create();
        client.nodes().resource(gpuNode("l4-1", L4, 4).build()).create();
        // As deploy/worker-agent/base does: the installation creates berth-system, the agent only uses it.
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(BerthCrds.SYSTEM_NAMESPACE).endMetadata().build()).create();
        client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(BerthCrds.FLAVOR_CATALOGUE).endMetadata()
                .addToData(BerthCrds.FLAVOR_CATALOGUE_KEY, client.getKubernetesSerialization().asJson(List.of(Fixtures.a100(), gpuFlavor("h100", H100))))
                .build()).create();
        AgentConfig config = AgentConfig.parse("--name", "gpu-east", "--host", "127.0.0.1", "--port", "0",
                "--heartbeat", "PT0.2S", "--reconcile-interval", "PT0.1S");
        agent = new Agent(vertx, client, config, clock);
        port = agent.start().toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) agent.stop().toCompletionStage().toCompletableFuture().get();
        if (client != null) client.close();
        if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get();
        if (server != null) destroyQuietly(server);
    }

    /**
     * The mock server's shutdown waits a fixed few seconds for its own Vert.x to close; on a saturated
     * machine that wait can run out after every assertion has passed. Teardown is not behaviour.
     */
    static void destroyQuietly(KubernetesMockServer server) {
        try {
            server.destroy();
        } catch (IllegalStateException slowShutdown) {
            System.err.println("mock API server shutdown was slow: " + slowShutdown.getMessage());
        }
    }

    static FlavorDefinition gpuFlavor(String name, String product) {
        return Fixtures.flavor(name).label(Labels.GPU_PRODUCT, product).tolerate("nvidia.com/gpu", "Exists", null, "NoSchedule").build();
    }

    private RemoteWorkload submit(String namespace, String name, RemoteWorkloadSpec spec) {
        spec.setLeaseRenewTime(clock.instant().toString());
        if (spec.getLeaseDurationSeconds() == 0) spec.setLeaseDurationSeconds(3600);
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .addToLabels(Labels.ATTEMPT_ID, spec.getAttemptId()).addToLabels(Labels.ORIGIN, "berth-manager").build());
        rw.setSpec(spec);
        return client.resources(RemoteWorkload.class).inNamespace(namespace).resource(rw).create();
    }

    private RemoteWorkloadStatus statusOf(String namespace, String name) {
        RemoteWorkload rw = client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name).get();
        return rw == null || rw.getStatus() == null ? new RemoteWorkloadStatus() : rw.getStatus();
    }

    private Optional<Job> job(String namespace, String name) {
        return Optional.ofNullable(client.batch().v1().jobs().inNamespace(namespace).withName(name).get());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String attempt() {
        return UUID.randomUUID().toString();
    }

    @Test
    @Order(1)
    void heartbeatLeaseCarriesCapacityPerFlavorAndTheAgentBecomesReady() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> {
            Lease lease = client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get();
            assertThat(lease).isNotNull();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("gpu-east");
            assertThat(lease.getSpec().getRenewTime()).isNotNull();
            assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(1);
            assertThat(lease.getMetadata().getAnnotations()).containsKey(Annotations.AGENT_FENCING_EPOCH);
            CapacityReport report = client.getKubernetesSerialization()
                    .unmarshal(lease.getMetadata().getAnnotations().get(Annotations.AGENT_CAPACITY), CapacityReport.class);
            assertThat(report.getFlavors()).extracting(CapacityReport.FlavorCapacity::getName).containsExactly("a100", "h100");
            assertThat(report.getFlavors().get(0).getNodes()).isEqualTo(2);
            assertThat(report.getFlavors().get(0).getAllocatable()).containsEntry("nvidia.com/gpu", "16");
        });
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("/readyz").statusCode()).isEqualTo(200));
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("/metrics").body())
                .contains("berth_agent_free_capacity{cluster=\"gpu-east\",flavor=\"a100\",resource=\"nvidia.com/gpu\"}"));
    }

    @Test
    @Order(2)
    void fittingAttemptGetsItsJobUnsuspendedPinnedAndOwnedThenSucceeds() {
        String attempt = attempt();
        RemoteWorkload rw = submit("team-fit", "train", spec(attempt, 1, Templates.job("train", 2, "2"), Fixtures.a100(), podSet("main", 2, "2", "a100")));

        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(statusOf("team-fit", "train").getPhase()));
        Job job = job("team-fit", "train").orElseThrow();
        assertThat(job.getSpec().getSuspend()).isFalse();
        assertThat(job.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry(Labels.GPU_PRODUCT, A100);
        assertThat(job.getSpec().getTemplate().getSpec().getTolerations()).extracting(Toleration::getKey).contains("nvidia.com/gpu");
        assertThat(job.getMetadata().getLabels()).containsEntry(Labels.ATTEMPT_ID, attempt).containsEntry(Labels.REMOTE_WORKLOAD, "train");
        assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("RemoteWorkload");
            assertThat(owner.getApiVersion()).isEqualTo("berth.dev/v1alpha1");
            assertThat(owner.getUid()).isEqualTo(rw.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        assertThat(statusOf("team-fit", "train").getAttemptId()).isEqualTo(attempt);
        await().atMost(WAIT).untilAsserted(() -> assertThat(capacityOf("a100")).as("GPUs held for pods not bound yet")
                .containsEntry("nvidia.com/gpu", "12"));
        assertThat(statusOf("team-fit", "train").getAdmittedTime()).isNotNull();

        job.setStatus(new JobStatusBuilder().withSucceeded(2)
                .withConditions(new JobConditionBuilder().withType("Complete").withStatus("True").build()).build());
        client.batch().v1().jobs().inNamespace("team-fit").resource(job).update();

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-fit", "train");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.SUCCEEDED);
            assertThat(status.getObjectStatus()).containsEntry("succeeded", 2);
            assertThat(status.getCompletionTime()).isNotNull();
        });
    }

    @Test
    @Order(3)
    void tooBigAttemptStaysPendingWithTheShortfall() {
        submit("team-big", "big", spec(attempt(), 1, Templates.job("big", 2, "6"), gpuFlavor("h100", H100), podSet("main", 2, "6", "h100")));

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-big", "big");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.PENDING);
            assertThat(status.getReason()).isEqualTo("insufficient nvidia.com/gpu: 12 requested, 8 free on matching nodes");
        });
        assertThat(job("team-big", "big")).isEmpty();
    }

    @Test
    @Order(4)
    void twoAttemptsDoNotBothTakeTheLastGpus() {
        FlavorDefinition l4 = gpuFlavor("l4", L4);
        submit("team-l4", "first", spec(attempt(), 1, Templates.job("first", 1, "4"), l4, podSet("main", 1, "4", "l4")));
        submit("team-l4", "second", spec(attempt(), 1, Templates.job("second", 1, "4"), l4, podSet("main", 1, "4", "l4")));

        await().atMost(WAIT).untilAsserted(() -> {
            List<String> phases = java.util.Arrays.asList(statusOf("team-l4", "first").getPhase(), statusOf("team-l4", "second").getPhase());
            assertThat(phases).containsExactlyInAnyOrder(RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.PENDING);
        });
        String pending = RemoteWorkloadPhase.PENDING.equals(statusOf("team-l4", "first").getPhase()) ? "first" : "second";
        assertThat(statusOf("team-l4", pending).getReason()).isEqualTo("insufficient nvidia.com/gpu: 4 requested, 0 free on matching nodes");
        assertThat(job("team-l4", pending)).isEmpty();
    }

    /** The free map the heartbeat reports for a flavor of the catalogue. */
    private Map<String, String> capacityOf(String flavor) {
        Lease lease = client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get();
        CapacityReport report = client.getKubernetesSerialization()
                .unmarshal(lease.getMetadata().getAnnotations().get(Annotations.AGENT_CAPACITY), CapacityReport.class);
        return report.getFlavors().stream().filter(f -> f.getName().equals(flavor)).findFirst()
                .map(CapacityReport.FlavorCapacity::getFree).orElse(Map.of());
    }

    @Test
    @Order(4)
    void passesOverAnUnchangedRunningAttemptWriteNothingAndAChangedPodPhaseIsWritten() {
        String attempt = attempt();
        submit("team-quiet", "quiet", spec(attempt, 1, Templates.job("quiet", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).until(() -> job("team-quiet", "quiet").isPresent());
        var pod = client.pods().inNamespace("team-quiet").resource(new PodBuilder().withNewMetadata().withName("quiet-abc")
                .addToLabels(Labels.ATTEMPT_ID, attempt).addToLabels(Labels.REMOTE_WORKLOAD, "quiet").endMetadata()
                .withNewSpec().withNodeName("a100-2").addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.RUNNING.equals(statusOf("team-quiet", "quiet").getPhase()));
        String version = client.resources(RemoteWorkload.class).inNamespace("team-quiet").withName("quiet").get().getMetadata().getResourceVersion();
        await().during(Duration.ofSeconds(1)).atMost(WAIT).untilAsserted(() -> assertThat(client.resources(RemoteWorkload.class)
                .inNamespace("team-quiet").withName("quiet").get().getMetadata().getResourceVersion()).as("ten passes, no write").isEqualTo(version));

        pod.getStatus().setPhase("Succeeded");
        client.pods().inNamespace("team-quiet").resource(pod).updateStatus();

        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf("team-quiet", "quiet").getPodsSucceeded()).isEqualTo(1));
    }

    @Test
    @Order(5)
    void expiredLeaseStopsTheAttemptAndDeletesItsJobAndPods() {
        String attempt = attempt();
        RemoteWorkloadSpec spec = spec(attempt, 1, Templates.job("short", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100"));
        spec.setLeaseDurationSeconds(60);
        submit("team-lease", "short", spec);
        await().atMost(WAIT).until(() -> job("team-lease", "short").isPresent());
        client.pods().inNamespace("team-lease").resource(new PodBuilder().withNewMetadata().withName("short-abc")
                .addToLabels(Labels.ATTEMPT_ID, attempt).addToLabels(Labels.REMOTE_WORKLOAD, "short").endMetadata()
                .withNewSpec().withNodeName("a100-1").addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.RUNNING.equals(statusOf("team-lease", "short").getPhase()));

        clock.advance(Duration.ofSeconds(61));

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-lease", "short");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.STOPPED);
            assertThat(status.getReason()).isEqualTo("LeaseExpired");
            assertThat(status.getPodsSucceeded()).isZero();
            assertThat(job("team-lease", "short")).isEmpty();
            assertThat(client.pods().inNamespace("team-lease").withName("short-abc").get()).isNull();
        });
        assertThat(agent.metrics().scrape()).contains("berth_agent_lease_expiries_total{cluster=\"gpu-east\"} 1.0");
    }

    @Test
    @Order(6)
    void deletingTheRemoteWorkloadDeletesWhatTheAgentCreated() {
        submit("team-del", "gone", spec(attempt(), 1, Templates.job("gone", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).until(() -> job("team-del", "gone").isPresent());

        client.resources(RemoteWorkload.class).inNamespace("team-del").withName("gone").delete();

        await().atMost(WAIT).until(() -> job("team-del", "gone").isEmpty());
    }

    @Test
    @Order(7)
    void anAttemptWhoseObjectsSomeoneDeletedOnTheClusterIsStoppedSoTheManagerPlacesItAgain() {
        submit("team-vanish", "train", spec(attempt(), 1, Templates.job("train", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(statusOf("team-vanish", "train").getPhase())
                && job("team-vanish", "train").isPresent());

        client.batch().v1().jobs().inNamespace("team-vanish").withName("train").delete(); // an administrator's delete

        // held while the absence lasts less than the grace (agent time), then stopped with the reason the manager retries on
        await().atMost(WAIT).until(() -> {
            assertThat(statusOf("team-vanish", "train").getPhase()).isIn(RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.STOPPED);
            clock.advance(Duration.ofSeconds(2));
            return RemoteWorkloadPhase.STOPPED.equals(statusOf("team-vanish", "train").getPhase());
        });
        RemoteWorkloadStatus stopped = statusOf("team-vanish", "train");
        assertThat(stopped.getReason()).isEqualTo(RemoteWorkloadPhase.REASON_OBJECTS_DELETED);
        assertThat(stopped.getMessage()).contains("deleted on cluster gpu-east");
        assertThat(stopped.getCompletionTime()).isNotNull();
        assertThat(job("team-vanish", "train")).as("nothing is created again for the stopped attempt").isEmpty();
    }

    @Test
    @Order(8)
    void aNewAttemptWaitsUntilTheEarlierCopyHoldingItsNameIsGoneThenCreatesItsOwn() {
        String earlier = attempt();
        submit("team-again", "serve-1", spec(earlier, 1, Templates.job("serve", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).until(() -> job("team-again", "serve").isPresent());

        String later = attempt();
        submit("team-again", "serve-2", spec(later, 1, Templates.job("serve", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf("team-again", "serve-2").getReason())
                .isEqualTo("waiting for Job team-again/serve of attempt " + earlier + " to be deleted"));
        assertThat(statusOf("team-again", "serve-2").getPhase()).isEqualTo(RemoteWorkloadPhase.PENDING);
        assertThat(job("team-again", "serve").orElseThrow().getMetadata().getLabels()).containsEntry(Labels.ATTEMPT_ID, earlier);

        client.resources(RemoteWorkload.class).inNamespace("team-again").withName("serve-1").delete();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(statusOf("team-again", "serve-2").getPhase()).isEqualTo(RemoteWorkloadPhase.ADMITTED);
            assertThat(job("team-again", "serve")).hasValueSatisfying(job -> assertThat(job.getMetadata().getLabels())
                    .containsEntry(Labels.ATTEMPT_ID, later).containsEntry(Labels.REMOTE_WORKLOAD, "serve-2"));
        });
    }

    @Test
    @Order(7)
    void metricsCountAdmissionsAndPhases() throws Exception {
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("/metrics").body())
                .contains("berth_agent_admissions_total{cluster=\"gpu-east\"}")
                .contains("berth_agent_attempts{cluster=\"gpu-east\",phase=\"Succeeded\"} 1.0")
                .contains("berth_agent_heartbeat_failures_total"));
    }

    @Test
    @Order(100)
    void olderFencingEpochIsRejectedAndTheMarkIsPersisted() {
        submit("team-fence", "new-leader", spec(attempt(), 7, Templates.job("nl", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(statusOf("team-fence", "new-leader").getPhase()));

        submit("team-fence", "old-leader", spec(attempt(), 5, Templates.job("ol", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-fence", "old-leader");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.REJECTED);
            assertThat(status.getReason()).isEqualTo("FencingEpochSuperseded");
            assertThat(status.getMessage()).contains("5").contains("7");
        });
        assertThat(job("team-fence", "ol")).isEmpty();
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .withName(BerthCrds.AGENT_LEASE).get().getMetadata().getAnnotations()).containsEntry(Annotations.AGENT_FENCING_EPOCH, "7"));
        assertThat(agent.metrics().scrape()).contains("berth_agent_rejections_total{cluster=\"gpu-east\",reason=\"FencingEpochSuperseded\"}");
    }

    @Test
    @Order(101)
    void restartedAgentKeepsTheFenceItPersisted() throws Exception {
        agent.stop().toCompletionStage().toCompletableFuture().get();
        agent = new Agent(vertx, client, AgentConfig.parse("--name", "gpu-east", "--host", "127.0.0.1", "--port", "0",
                "--heartbeat", "PT0.2S", "--reconcile-interval", "PT0.1S"), clock);
        port = agent.start().toCompletionStage().toCompletableFuture().get();

        submit("team-fence", "stale-leader", spec(attempt(), 6, Templates.job("sl", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));

        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf("team-fence", "stale-leader").getPhase()).isEqualTo(RemoteWorkloadPhase.REJECTED));
        assertThat(statusOf("team-fence", "new-leader").getPhase()).isEqualTo(RemoteWorkloadPhase.ADMITTED);
    }

    /**
     * What lets the manager release a dead leader's unconfirmed dispatch early: once the agent published an
     * epoch, a create stamped older is refused even when nothing of the newer epoch is left on the cluster
     * (the mark outlives the objects that raised it), and nothing of it is created.
     */
    @Test
    @Order(102)
    void aLateCreateOfAnOlderEpochIsRefusedAfterTheNewerEpochsObjectsAreGone() {
        client.resources(RemoteWorkload.class).inNamespace("team-fence").withName("new-leader").delete();
        await().atMost(WAIT).until(() -> client.resources(RemoteWorkload.class).inNamespace("team-fence").withName("new-leader").get() == null);
        assertThat(client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get()
                .getMetadata().getAnnotations()).containsEntry(Annotations.AGENT_FENCING_EPOCH, "7");

        RemoteWorkload late = submit("team-fence", "dead-leader-late", spec(attempt(), 6, Templates.job("dl", 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100")));

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-fence", "dead-leader-late");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.REJECTED);
            assertThat(status.getReason()).isEqualTo("FencingEpochSuperseded");
        });
        assertThat(job("team-fence", "dl")).isEmpty();
        assertThat(client.pods().inNamespace("team-fence").withLabel(Labels.ATTEMPT_ID, late.getSpec().getAttemptId())
                .list().getItems()).isEmpty();
    }
}
