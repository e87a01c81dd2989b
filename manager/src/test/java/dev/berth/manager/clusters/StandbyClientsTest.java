package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.dispatch.WarmStandbyPlan.Role;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Warm standby: a follower keeps a worker-cluster client built and connected, reading only, and a new
 * leader's {@link WorkerClusters} adopts that client instead of building its own after taking office.
 * One worker cluster: a fabric8 CRUD mock API server on loopback.
 */
class StandbyClientsTest {
    private final ExecutorService stateThread = Executors.newSingleThreadExecutor();
    private final List<String> connections = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private KubernetesMockServer api;
    private StandbyClients standby;
    private WorkerClusters leaderClusters;
    private KubeconfigSource source;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        api.init(InetAddress.getByName("127.0.0.1"), 0);
        source = KubeconfigSource.ofContent("""
                apiVersion: v1
                kind: Config
                clusters:
                - name: east
                  cluster: {server: "%s"}
                contexts:
                - name: east
                  context: {cluster: east}
                current-context: east
                """.formatted(api.url("/").replaceAll("/$", "")));
        standby = new StandbyClients(ResilienceOptions.DEFAULTS, "test-origin", Clock.systemUTC(), Duration.ofMillis(100));
    }

    @AfterEach
    void stop() throws Exception {
        if (leaderClusters != null) stateThread.submit(leaderClusters::close).get(10, TimeUnit.SECONDS);
        stateThread.shutdown();
        standby.close();
        api.destroy();
        vertx.close().await();
    }

    @Test
    void aFollowerHoldsAConnectedClientAndOnlyReadsItsCluster() throws Exception {
        standby.refresh(Role.FOLLOWING, Map.of("east", source));

        assertThat(standby.holdsConnected("east")).as("built, and its first read answered").isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            standby.refresh(Role.FOLLOWING, Map.of("east", source));
            return api.getRequestCount() >= 4; // two probes of a Lease read and a listing each
        });
        assertThat(methods()).isNotEmpty().containsOnly("GET");
    }

    @Test
    void whileLeadingTheStandbyHoldsNoClient() {
        standby.refresh(Role.FOLLOWING, Map.of("east", source));
        assertThat(standby.held()).isEqualTo(1);

        standby.refresh(Role.LEADING, Map.of("east", source));

        assertThat(standby.held()).isZero();
        assertThat(standby.holdsConnected("east")).isFalse();
    }

    @Test
    void aNewLeaderAdoptsTheWarmClientAndPollsAtOnce() {
        standby.refresh(Role.FOLLOWING, Map.of("east", source));
        assertThat(standby.holdsConnected("east")).isTrue();
        standby.refresh(Role.TAKING_OFFICE, Map.of());
        assertThat(standby.held()).as("kept while the new manager is being built").isEqualTo(1);

        leaderClusters = new WorkerClusters(stateThread, events(), "test-origin", Clock.systemUTC(), ResilienceOptions.DEFAULTS,
                dev.berth.manager.dispatch.HealthOptions.DEFAULTS, standby);
        stateThread.execute(() -> leaderClusters.connect("east", source));

        await().atMost(Duration.ofSeconds(10)).until(() -> connections.contains("east=true"));
        assertThat(standby.held()).as("the client moved to the leader's manager; the standby keeps none").isZero();
    }

    @Test
    void aClientBuiltWithOtherResilienceOptionsIsNotAdoptedTheLeaderBuildsItsOwn() {
        standby.refresh(Role.FOLLOWING, Map.of("east", source));
        ResilienceOptions other = new ResilienceOptions(Duration.ofMillis(1500), 2, Duration.ofMillis(200), 50f, 10, Duration.ofSeconds(3), 8);

        leaderClusters = new WorkerClusters(stateThread, events(), "test-origin", Clock.systemUTC(), other,
                dev.berth.manager.dispatch.HealthOptions.DEFAULTS, standby);
        stateThread.execute(() -> leaderClusters.connect("east", source));

        await().atMost(Duration.ofSeconds(30)).until(() -> connections.contains("east=true"));
        assertThat(standby.held()).isZero();
    }

    @Test
    void aNewLeaderWhoseClusterHoldsItsCatalogueListsWithoutRewritingIt() throws Exception {
        catalogueOnTheCluster("[]"); // what a leader without flavors writes
        standby.refresh(Role.FOLLOWING, Map.of("east", source));
        methods(); // the standby's reads

        adoptAndConnect();

        assertThat(methods()).as("the leader's first poll only read").isNotEmpty().containsOnly("GET");
    }

    @Test
    void aStaleCatalogueOnTheClusterIsRewrittenByTheNewLeader() throws Exception {
        catalogueOnTheCluster("[{\"name\":\"gone\"}]");
        standby.refresh(Role.FOLLOWING, Map.of("east", source));
        methods();

        adoptAndConnect();

        assertThat(methods()).as("the catalogue was written").anyMatch(method -> !method.equals("GET"));
    }

    private void adoptAndConnect() {
        leaderClusters = new WorkerClusters(stateThread, events(), "test-origin", Clock.systemUTC(), ResilienceOptions.DEFAULTS,
                dev.berth.manager.dispatch.HealthOptions.DEFAULTS, standby);
        stateThread.execute(() -> leaderClusters.connect("east", source));
        await().atMost(Duration.ofSeconds(10)).until(() -> connections.contains("east=true"));
        assertThat(standby.held()).isZero();
    }

    private void catalogueOnTheCluster(String flavorsJson) {
        try (var client = api.createClient()) {
            client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName(dev.berth.protocol.crd.BerthCrds.SYSTEM_NAMESPACE).endMetadata().build()).create();
            client.configMaps().inNamespace(dev.berth.protocol.crd.BerthCrds.SYSTEM_NAMESPACE).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                    .withNewMetadata().withName(dev.berth.protocol.crd.BerthCrds.FLAVOR_CATALOGUE).endMetadata()
                    .withData(Map.of(dev.berth.protocol.crd.BerthCrds.FLAVOR_CATALOGUE_KEY, flavorsJson)).build()).create();
        }
    }

    private List<String> methods() throws InterruptedException {
        List<String> methods = new ArrayList<>();
        for (RecordedRequest request; (request = api.takeRequest(100, TimeUnit.MILLISECONDS)) != null; ) methods.add(request.getMethod());
        return methods;
    }

    private ClusterEvents events() {
        return new ClusterEvents() {
            @Override
            public void connectionChanged(String cluster, boolean connected, String message) {
                connections.add(cluster + "=" + connected);
            }

            @Override
            public void capacityChanged(String cluster) {
            }

            @Override
            public void attemptsListed(String cluster, List<dev.berth.protocol.crd.RemoteWorkload> attempts) {
            }
        };
    }
}
