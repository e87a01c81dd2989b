package dev.berth.agent;

import static dev.berth.agent.Fixtures.A100;
import static dev.berth.agent.Fixtures.gpuNode;
import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The agent reads its informer caches: against fabric8's CRUD mock API server, behind a gate that can refuse
 * requests, a pass waits for the caches to sync, sees what is created after, and lists directly while a watch is down.
 */
class InformerCachesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Gate gate = new Gate();
    private final Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.now());
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private KubernetesMockServer server;
    private Vertx vertx;
    private KubernetesClient client;
    private Agent agent;

    /**
     * The CRUD mock, refusing whatever request the test says with 403, as an API server denying a list or watch would,
     * and answering 404 to those the test says it does not serve (a kind without its CRD).
     */
    private static final class Gate extends Dispatcher {
        private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
        private volatile Predicate<RecordedRequest> refused = request -> false;
        private volatile Predicate<RecordedRequest> notServed = request -> false;

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if (refused.test(request)) {
                return new MockResponse().setResponseCode(403)
                        .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403}");
            }
            if (notServed.test(request)) {
                return new MockResponse().setResponseCode(404)
                        .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}");
            }
            return crud.dispatch(request);
        }

        @Override
        public void shutdown() {
            crud.shutdown();
        }
    }

    @BeforeEach
    void startCluster() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), gate, false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        vertx = Vertx.vertx();
        client = server.createClient(new Vertx5HttpClientFactory(vertx));
        try (InputStream crd = getClass().getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            client.apiextensions().v1().customResourceDefinitions().resource(
                    client.apiextensions().v1().customResourceDefinitions().load(crd).item()).create();
        }
        client.nodes().resource(gpuNode("a100-1", A100, 8).build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(BerthCrds.SYSTEM_NAMESPACE).endMetadata().build()).create();
        client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(BerthCrds.FLAVOR_CATALOGUE).endMetadata()
                .addToData(BerthCrds.FLAVOR_CATALOGUE_KEY, client.getKubernetesSerialization().asJson(List.of(Fixtures.a100())))
                .build()).create();
        logs.start();
        ((Logger) LoggerFactory.getLogger(ClusterCaches.class)).addAppender(logs);
    }

    @AfterEach
    void stop() throws Exception {
        ((Logger) LoggerFactory.getLogger(ClusterCaches.class)).detachAppender(logs);
        if (agent != null) agent.stop().toCompletionStage().toCompletableFuture().get();
        if (client != null) client.close();
        if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get();
        if (server != null) AgentIntegrationTest.destroyQuietly(server);
    }

    private void startAgent() throws Exception {
        agent = new Agent(vertx, client, AgentConfig.parse("--name", "gpu-east", "--host", "127.0.0.1", "--port", "0",
                "--heartbeat", "PT0.2S", "--reconcile-interval", "PT0.1S"), clock);
        agent.start().toCompletionStage().toCompletableFuture().get();
    }

    private void submit(String name) {
        var spec = spec(UUID.randomUUID().toString(), 1, Templates.job(name, 1, "1"), Fixtures.a100(), podSet("main", 1, "1", "a100"));
        spec.setLeaseRenewTime(clock.instant().toString());
        spec.setLeaseDurationSeconds(3600);
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("team").addToLabels(Labels.ATTEMPT_ID, spec.getAttemptId()).build());
        rw.setSpec(spec);
        client.resources(RemoteWorkload.class).inNamespace("team").resource(rw).create();
    }

    private String phaseOf(String name) {
        RemoteWorkload rw = client.resources(RemoteWorkload.class).inNamespace("team").withName(name).get();
        return rw == null || rw.getStatus() == null ? null : rw.getStatus().getPhase();
    }

    @Test
    void aPassWaitsForTheCachesToSyncAndThenSeesRemoteWorkloadsCreatedAfterwards() throws Exception {
        // the node informer's list (resourceVersion=0, served from the API server's watch cache) is refused: its cache
        // cannot sync while this holds; a direct listing of nodes still works, so a pass that ran would admit
        gate.refused = request -> request.getPath().equals("/api/v1/nodes?resourceVersion=0");
        submit("early");
        startAgent();

        // heartbeats and passes share the agent's thread: once a heartbeat is written the agent is running, and the
        // pass due with it has had its turn
        await().atMost(WAIT).until(() -> client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get() != null);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> phaseOf("early") == null);

        gate.refused = request -> false;
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(phaseOf("early")));
        submit("late");
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(phaseOf("late")));
        assertThat(client.batch().v1().jobs().inNamespace("team").withName("late").get()).isNotNull();
        assertThat(fallbacks("RemoteWorkload")).isZero();
    }

    @Test
    void aRemoteWorkloadInformerWhoseWatchIsDownIsListedDirectlyAndLoggedOnce() throws Exception {
        gate.refused = request -> request.getPath().contains("/remoteworkloads") && request.getPath().contains("watch=true");
        startAgent();
        submit("unwatched");

        // no watch event can trigger a pass or fill the cache's watch: the periodic pass lists RemoteWorkloads itself
        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(phaseOf("unwatched")));
        assertThat(fallbacks("RemoteWorkload")).isEqualTo(1);

        gate.refused = request -> false;
        await().atMost(WAIT).until(() -> logs.list.stream().anyMatch(e -> e.getFormattedMessage().contains("watching again")
                && "RemoteWorkload".equals(kindOf(e))));
        assertThat(fallbacks("RemoteWorkload")).isEqualTo(1);
    }

    @Test
    void aKindTheClusterDoesNotServeDoesNotHoldThePassesBack() throws Exception {
        gate.notServed = request -> request.getPath().startsWith("/apis/jobset.x-k8s.io/") || request.getPath().startsWith("/apis/ray.io/");
        submit("no-jobsets-here");
        startAgent();

        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(phaseOf("no-jobsets-here")));
        assertThat(logs.list.stream().filter(e -> e.getFormattedMessage().contains("kind not served")).map(InformerCachesTest::kindOf))
                .contains("JobSet.jobset.x-k8s.io", "RayJob.ray.io", "RayCluster.ray.io");
    }

    private long fallbacks(String kind) {
        return logs.list.stream().filter(e -> e.getFormattedMessage().contains("listing directly until it is") && kind.equals(kindOf(e))).count();
    }

    private static String kindOf(ILoggingEvent event) {
        if (event.getKeyValuePairs() == null) return null;
        return event.getKeyValuePairs().stream().filter(kv -> "kind".equals(kv.key)).map(kv -> String.valueOf(kv.value)).findFirst().orElse(null);
    }
}
