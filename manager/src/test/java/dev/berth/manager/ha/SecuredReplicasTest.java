package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.ReplicaCertificateAuthority;
import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.security.SelfSignedCertificate;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.NeedsPostgres;
import dev.berth.protocol.ManagerReplicas;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two secured replicas over one PostgreSQL schema, serving TLS: a follower guards what it serves and
 * what it forwards as the leader does (401 anonymous, 403 outside RBAC), forwards the caller it
 * authenticated to the leader over mutual TLS (ReplicaFrontProxyTest), and picks up RBAC objects the leader wrote.
 */
@NeedsPostgres
class SecuredReplicasTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final String ADMIN = "admin-token-replicas-0123";
    private static final String ALICE = "alice-token-replicas-0123";
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;
    private PostgresConfig database;
    private final String clusterName = "berth-secured-" + UUID.randomUUID();
    private final List<ManagerReplica> replicas = new ArrayList<>();
    /** Trusts the replicas' certificate; one client per replica's address. */
    private String certificatePem;
    private final Map<String, ManagerClient> clients = new ConcurrentHashMap<>();
    private final ReplicaCertificateAuthority replicaCa =
            ReplicaCertificateAuthority.generate("berth-replica-ca", Duration.ofDays(1), Clock.systemUTC());

    @BeforeEach
    void setUp() throws Exception {
        database = PostgresTestDatabase.freshSchema("ha_secured");
    }

    @AfterEach
    void tearDown() {
        replicas.forEach(ManagerReplica::close);
    }

    @Test
    void aFollowerGuardsReadsAndForwardsTheCallerItAuthenticated() throws Exception {
        SecurityOptions security = security();
        List<ManagerReplica> started = startReplicas(security, "a", "b");
        await().atMost(WAIT).until(() -> started.stream().filter(ManagerReplica::isLeader).count() == 1);
        ManagerReplica follower = started.stream().filter(r -> !r.isLeader()).findFirst().orElseThrow();
        assertThat(follower.url()).startsWith("https://");

        HttpResponse<String> anonymous = send(follower, "GET", KUEUE + "/clusterqueues", null, null);
        assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
        assertThat(anonymous.headers().allValues(ManagerReplicas.SERVED_BY_HEADER)).containsExactly(follower.replicaId());
        HttpResponse<String> anonymousWrite = send(follower, "POST", "/api/v1/namespaces", null,
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"sneaky\"}}");
        assertThat(anonymousWrite.statusCode()).isEqualTo(401);
        assertThat(anonymousWrite.headers().allValues(ManagerReplicas.SERVED_BY_HEADER)).containsExactly(follower.replicaId());
        assertThat(send(follower, "GET", KUEUE + "/clusterqueues", ALICE, null).statusCode()).isEqualTo(403);
        assertThat(send(follower, "GET", KUEUE + "/clusterqueues", ADMIN, null).statusCode()).isEqualTo(200);

        HttpResponse<String> namespace = send(follower, "POST", "/api/v1/namespaces", ADMIN,
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        assertThat(namespace.statusCode()).as(namespace.body()).isEqualTo(201);
        assertThat(send(follower, "GET", KUEUE + "/namespaces/team-a/workloads", ALICE, null).statusCode()).isEqualTo(403);
        HttpResponse<String> role = send(follower, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", ADMIN,
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"reader\"},"
                        + "\"rules\":[{\"apiGroups\":[\"kueue.x-k8s.io\"],\"resources\":[\"workloads\"],\"verbs\":[\"get\",\"list\"]}]}");
        assertThat(role.statusCode()).as(role.body()).isEqualTo(201);
        HttpResponse<String> binding = send(follower, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", ADMIN,
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\",\"metadata\":{\"name\":\"alice-reads\",\"namespace\":\"team-a\"},"
                        + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"reader\"},"
                        + "\"subjects\":[{\"kind\":\"User\",\"name\":\"alice\"}]}");
        assertThat(binding.statusCode()).as(binding.body()).isEqualTo(201);
        await().atMost(WAIT).until(() -> send(follower, "GET", KUEUE + "/namespaces/team-a/workloads", ALICE, null).statusCode() == 200);

        HttpResponse<String> tenantWrite = send(follower, "POST", "/api/v1/namespaces", ALICE,
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"alice-own\"}}");
        assertThat(tenantWrite.statusCode()).isEqualTo(403);
        assertThat(send(follower, "GET", "/api/v1/namespaces/alice-own", ADMIN, null).statusCode()).isEqualTo(404);
    }

    private SecurityOptions security() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate("berth-replicas", List.of("localhost"), List.of("127.0.0.1"),
                Duration.ofDays(1), Clock.systemUTC());
        Files.writeString(dir.resolve("tls.crt"), certificate.certificatePem());
        Files.writeString(dir.resolve("tls.key"), certificate.privateKeyPem());
        Files.writeString(dir.resolve("tokens.csv"), ADMIN + ",admin,1,\"system:masters\"\n" + ALICE + ",alice,2,team-a\n");
        certificatePem = certificate.certificatePem();
        return new SecurityOptions(Optional.of(dir.resolve("tokens.csv")), Optional.empty(),
                Optional.of(new SecurityOptions.Tls(dir.resolve("tls.crt"), dir.resolve("tls.key"))),
                SecurityOptions.DEFAULT_TENANT_RATE, SecurityOptions.DEFAULT_ADMIN_RATE, dir.resolve("audit.log"));
    }

    private List<ManagerReplica> startReplicas(SecurityOptions security, String... ids) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (String ignored : ids) ports.add(freePort());
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        List<ManagerReplica> started = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            ReplicaOptions options = ReplicaOptions.loopback(ids[i], 0)
                    .inCluster(clusterName, ports.get(i), members)
                    .checkingLeadershipEvery(Duration.ofMillis(500));
            PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC());
            ReplicaTrust trust = replicaCa.writeTrust(dir.resolve("replicas"), ids[i], java.util.Set.of(ids), 0);
            ManagerReplica replica = ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(),
                    SchedulerOptions.DEFAULTS).secure(security.withoutTls()), security, trust);
            replicas.add(replica);
            started.add(replica);
        }
        return started;
    }

    private HttpResponse<String> send(ManagerReplica via, String method, String path, String token, String body) throws Exception {
        ManagerClient client = clients.computeIfAbsent(via.url(), url -> ManagerClient.trusting(url, certificatePem, Duration.ofSeconds(30)));
        return (token == null ? client : client.withToken(token)).send(method, path, ManagerClient.JSON_TYPE, body);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
