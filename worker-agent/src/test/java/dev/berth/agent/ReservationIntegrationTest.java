package dev.berth.agent;

import static dev.berth.agent.Fixtures.gpuNode;
import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two-phase dispatch on the agent, against fabric8's CRUD mock API server: a reservation is admitted
 * against the cluster's capacity and reported Reserved, holds that capacity, and creates nothing until
 * the manager commits it; an uncommitted reservation whose lease runs out is stopped and releases it.
 * One L4 node with 4 GPUs; each test uses all of them, so the tests run in order and clean up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReservationIntegrationTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String L4 = "NVIDIA-L4";

    private KubernetesMockServer server;
    private Vertx vertx;
    private KubernetesClient client;
    private Agent agent;
    private final Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.now());
    private final FlavorDefinition l4 = AgentIntegrationTest.gpuFlavor("l4", L4);

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
        client.nodes().resource(gpuNode("l4-1", L4, 4).build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(BerthCrds.SYSTEM_NAMESPACE).endMetadata().build()).create();
        client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(BerthCrds.FLAVOR_CATALOGUE).endMetadata()
                .addToData(BerthCrds.FLAVOR_CATALOGUE_KEY, client.getKubernetesSerialization().asJson(List.of(l4)))
                .build()).create();
        AgentConfig config = AgentConfig.parse("--name", "gpu-west", "--host", "127.0.0.1", "--port", "0",
                "--heartbeat", "PT0.2S", "--reconcile-interval", "PT0.1S");
        agent = new Agent(vertx, client, config, clock);
        agent.start().toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) agent.stop().toCompletionStage().toCompletableFuture().get();
        if (client != null) client.close();
        if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get();
        if (server != null) AgentIntegrationTest.destroyQuietly(server);
    }

    @Test
    @Order(1)
    void reservationHoldsCapacityAndStartsNothingUntilCommitted() {
        String attempt = UUID.randomUUID().toString();
        RemoteWorkloadSpec reservation = spec(attempt, 1, Templates.job("held", 1, "4"), l4, podSet("main", 1, "4", "l4"));
        reservation.setReservation(true);
        submit("team-two", "held", reservation);

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-two", "held");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.RESERVED);
            assertThat(status.getAttemptId()).isEqualTo(attempt);
            assertThat(status.getMessage()).contains("nothing starts until the manager commits");
        });
        // a committed attempt of the same priority, submitted later, finds the reserved GPUs taken
        submit("team-two", "other", spec(UUID.randomUUID().toString(), 1, Templates.job("other", 1, "4"), l4, podSet("main", 1, "4", "l4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf("team-two", "other").getReason())
                .isEqualTo("insufficient nvidia.com/gpu: 4 requested, 0 free on matching nodes"));
        assertThat(statusOf("team-two", "held").getPhase()).isEqualTo(RemoteWorkloadPhase.RESERVED);
        assertThat(jobExists("team-two", "held")).as("a reservation creates no Job").isFalse();

        client.resources(RemoteWorkload.class).inNamespace("team-two").withName("held").edit(rw -> {
            rw.getSpec().setReservation(false);
            return rw;
        });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(statusOf("team-two", "held").getPhase()).isEqualTo(RemoteWorkloadPhase.ADMITTED);
            assertThat(jobExists("team-two", "held")).isTrue();
        });
        assertThat(jobExists("team-two", "other")).isFalse();
        client.resources(RemoteWorkload.class).inNamespace("team-two").delete();
        await().atMost(WAIT).until(() -> !jobExists("team-two", "held"));
    }

    @Test
    @Order(2)
    void uncommittedReservationWhoseLeaseRunsOutIsStoppedAndReleasesItsCapacity() {
        RemoteWorkloadSpec reservation = spec(UUID.randomUUID().toString(), 1, Templates.job("orphan", 1, "4"), l4, podSet("main", 1, "4", "l4"));
        reservation.setReservation(true);
        reservation.setLeaseDurationSeconds(60);
        submit("team-orphan", "orphan", reservation);
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.RESERVED.equals(statusOf("team-orphan", "orphan").getPhase()));

        clock.advance(Duration.ofSeconds(61)); // the manager died between reservation and commit: nobody renews

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("team-orphan", "orphan");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.STOPPED);
            assertThat(status.getReason()).isEqualTo(RemoteWorkloadPhase.REASON_LEASE_EXPIRED);
        });
        assertThat(jobExists("team-orphan", "orphan")).isFalse();
        // a late commit of the stopped reservation starts nothing: the copy is final
        client.resources(RemoteWorkload.class).inNamespace("team-orphan").withName("orphan").edit(rw -> {
            rw.getSpec().setReservation(false);
            rw.getSpec().setLeaseRenewTime(clock.instant().toString());
            return rw;
        });
        submit("team-orphan", "next", spec(UUID.randomUUID().toString(), 1, Templates.job("next", 1, "4"), l4, podSet("main", 1, "4", "l4")));
        await().atMost(WAIT).untilAsserted(() -> assertThat(statusOf("team-orphan", "next").getPhase()).isEqualTo(RemoteWorkloadPhase.ADMITTED));
        assertThat(jobExists("team-orphan", "orphan")).isFalse();
        assertThat(statusOf("team-orphan", "orphan").getPhase()).isEqualTo(RemoteWorkloadPhase.STOPPED);
    }

    private void submit(String namespace, String name, RemoteWorkloadSpec spec) {
        spec.setLeaseRenewTime(clock.instant().toString());
        if (spec.getLeaseDurationSeconds() == 0) spec.setLeaseDurationSeconds(3600);
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .addToLabels(Labels.ATTEMPT_ID, spec.getAttemptId()).addToLabels(Labels.ORIGIN, "berth-manager").build());
        rw.setSpec(spec);
        client.resources(RemoteWorkload.class).inNamespace(namespace).resource(rw).create();
    }

    private RemoteWorkloadStatus statusOf(String namespace, String name) {
        RemoteWorkload rw = client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name).get();
        return rw == null || rw.getStatus() == null ? new RemoteWorkloadStatus() : rw.getStatus();
    }

    private boolean jobExists(String namespace, String name) {
        return client.batch().v1().jobs().inNamespace(namespace).withName(name).get() != null;
    }
}
