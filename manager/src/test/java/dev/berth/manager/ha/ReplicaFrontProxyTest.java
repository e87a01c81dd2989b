package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.ReplicaCertificateAuthority;
import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.security.SelfSignedCertificate;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.MemoryObjectStore;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas trust each other through mutual TLS from a replica CA, as kube-apiserver trusts its front
 * proxy: a follower forwards the caller it authenticated as X-Remote-User/X-Remote-Group and never
 * the caller's bearer token; it forwards only to a leader whose server certificate the replica CA
 * signed, so a member that publishes itself as leader collects nothing; and a leader takes
 * X-Remote-* only from a replica certificate with an allowed name, never from a caller on the public
 * port.
 */
class ReplicaFrontProxyTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final String ADMIN = "admin-token-front-proxy-0123";
    private static final String ALICE = "alice-token-front-proxy-0123";
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final String NAMESPACE = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-z\"}}";
    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;
    private final List<ManagerReplica> replicas = new ArrayList<>();
    private final Vertx vertx = Vertx.vertx();
    private ReplicaCertificateAuthority ca;
    private SelfSignedCertificate serving;
    private SecurityOptions security;
    private HttpClient http;

    /** What a fake leader received: one entry per request, its headers. */
    private final List<MultiMap> captured = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        ca = ReplicaCertificateAuthority.generate("berth-replica-ca", Duration.ofDays(1), Clock.systemUTC());
        serving = SelfSignedCertificate.generate("berth-public", List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1), Clock.systemUTC());
        Files.writeString(dir.resolve("tls.crt"), serving.certificatePem());
        Files.writeString(dir.resolve("tls.key"), serving.privateKeyPem());
        Files.writeString(dir.resolve("tokens.csv"), ADMIN + ",admin,1,\"system:masters\"\n" + ALICE + ",alice,2,team-a\n");
        security = new SecurityOptions(Optional.of(dir.resolve("tokens.csv")), Optional.empty(),
                Optional.of(new SecurityOptions.Tls(dir.resolve("tls.crt"), dir.resolve("tls.key"))),
                SecurityOptions.DEFAULT_TENANT_RATE, SecurityOptions.DEFAULT_ADMIN_RATE, dir.resolve("audit.log"));
        http = client(null);
    }

    @AfterEach
    void tearDown() {
        replicas.forEach(ManagerReplica::close);
        vertx.close().await();
    }

    @Test
    void aFollowerForwardsTheUserItAuthenticatedAndNeverTheToken() throws Exception {
        ManagerReplica follower = replica("follower", 2);
        int fake = fakeLeader(ca.issue("fake-leader", List.of("localhost"), List.of("127.0.0.1")));
        follower.directory().publish(new LeaderRecord("fake-leader", "https://127.0.0.1:" + fake, 99)).await();

        HttpResponse<String> write = send(follower.url(), "POST", "/api/v1/namespaces", ADMIN, NAMESPACE,
                List.of(FrontProxyIdentity.USER_HEADER, "mallory", FrontProxyIdentity.SECRET_HEADER, "guessed"));
        assertThat(write.statusCode()).as(write.body()).isEqualTo(201);
        assertThat(captured).hasSize(1);
        MultiMap seen = captured.get(0);
        assertThat(seen.contains("Authorization")).as("the bearer token stays with the follower").isFalse();
        assertThat(seen.getAll(FrontProxyIdentity.USER_HEADER)).containsExactly("admin");
        assertThat(seen.getAll(FrontProxyIdentity.GROUP_HEADER)).contains("system:masters", "system:authenticated");
        assertThat(seen.contains(FrontProxyIdentity.SECRET_HEADER)).isFalse();
        assertThat(seen.get("X-Berth-Forwarded-By")).isEqualTo("follower");

        HttpResponse<String> anonymous = send(follower.url(), "POST", "/api/v1/namespaces", null, NAMESPACE,
                List.of(FrontProxyIdentity.USER_HEADER, "admin", FrontProxyIdentity.GROUP_HEADER, "system:masters"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(captured).as("an anonymous caller's X-Remote-* headers are not an identity").hasSize(1);
    }

    @Test
    void aRogueLeaderWithoutAReplicaCertificateReceivesNothing() throws Exception {
        ManagerReplica follower = replica("follower", 2);
        int rogue = fakeLeader(new ReplicaCertificateAuthority.Issued(serving.certificatePem(), serving.privateKeyPem()));
        follower.directory().publish(new LeaderRecord("rogue", "https://127.0.0.1:" + rogue, 100)).await();
        HttpResponse<String> write = send(follower.url(), "POST", "/api/v1/namespaces", ADMIN, NAMESPACE, List.of());
        assertThat(write.statusCode()).as(write.body()).isEqualTo(503);
        assertThat(captured).isEmpty();

        follower.directory().publish(new LeaderRecord("rogue", "http://127.0.0.1:" + rogue, 101)).await();
        assertThat(send(follower.url(), "POST", "/api/v1/namespaces", ADMIN, NAMESPACE, List.of()).statusCode()).isEqualTo(503);
        assertThat(captured).as("no identity goes over plain HTTP").isEmpty();
    }

    @Test
    void theLeaderTakesRemoteHeadersOnlyFromAnAllowedReplicaCertificate() throws Exception {
        ManagerReplica leader = replica("leader", 1);
        await().atMost(WAIT).until(leader::isLeader);
        String publicUrl = leader.url();

        assertThat(send(publicUrl, "POST", "/api/v1/namespaces", null, NAMESPACE,
                List.of(FrontProxyIdentity.USER_HEADER, "admin", FrontProxyIdentity.GROUP_HEADER, "system:masters")).statusCode())
                .as("X-Remote-* on the public port, no token").isEqualTo(401);
        assertThat(send(publicUrl, "GET", KUEUE + "/clusterqueues", ALICE, null,
                List.of(FrontProxyIdentity.USER_HEADER, "admin", FrontProxyIdentity.GROUP_HEADER, "system:masters")).statusCode())
                .as("X-Remote-* on the public port with a tenant's token: the tenant's rights").isEqualTo(403);

        String replicaUrl = leader.directory().leader().await().orElseThrow().url();
        assertThat(replicaUrl).startsWith("https://127.0.0.1:").doesNotEndWith(":" + leader.port());
        List<String> asAdmin = List.of(FrontProxyIdentity.USER_HEADER, "admin", FrontProxyIdentity.GROUP_HEADER, "system:masters");
        assertThatThrownBy(() -> send(replicaUrl, "GET", KUEUE + "/clusterqueues", null, null, asAdmin))
                .as("no client certificate: the handshake fails").isInstanceOf(IOException.class);
        ReplicaCertificateAuthority otherCa = ReplicaCertificateAuthority.generate("other-ca", Duration.ofDays(1), Clock.systemUTC());
        HttpClient foreign = client(otherCa.issue("follower", List.of("localhost"), List.of("127.0.0.1")));
        assertThatThrownBy(() -> sendWith(foreign, replicaUrl, "GET", KUEUE + "/clusterqueues", null, null, asAdmin))
                .as("a certificate from another CA: the handshake fails").isInstanceOf(IOException.class);
        HttpClient unlisted = client(ca.issue("intruder", List.of("localhost"), List.of("127.0.0.1")));
        assertThat(sendWith(unlisted, replicaUrl, "GET", KUEUE + "/clusterqueues", null, null, asAdmin).statusCode())
                .as("a replica-CA certificate whose name is not allowed").isEqualTo(403);

        HttpClient replicaClient = client(ca.issue("follower", List.of("localhost"), List.of("127.0.0.1")));
        HttpResponse<String> asserted = sendWith(replicaClient, replicaUrl, "POST", "/api/v1/namespaces", null, NAMESPACE, asAdmin);
        assertThat(asserted.statusCode()).as(asserted.body()).isEqualTo(201);
        assertThat(Files.readString(dir.resolve("audit.log"))).contains("\"user\":\"admin\"");
        assertThat(sendWith(replicaClient, replicaUrl, "GET", KUEUE + "/clusterqueues", null, null,
                List.of(FrontProxyIdentity.USER_HEADER, "alice", FrontProxyIdentity.GROUP_HEADER, "team-a")).statusCode())
                .as("the asserted user's own rights apply").isEqualTo(403);
    }

    private ManagerReplica replica(String id, int minMembersToLead) throws Exception {
        int port = freePort();
        ReplicaOptions options = ReplicaOptions.loopback(id, 0)
                .inCluster("berth-front-proxy-" + UUID.randomUUID(), port, List.of("127.0.0.1:" + port))
                .withMinMembersToLead(minMembersToLead)
                .checkingLeadershipEvery(Duration.ofMillis(300));
        ReplicaTrust trust = ca.writeTrust(dir.resolve("replicas"), id, Set.of("leader", "follower"), 0);
        MemoryObjectStore store = new MemoryObjectStore();
        ManagerReplica replica = ManagerReplica.start(options, store,
                () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS).secure(security.withoutTls()), security, trust);
        replicas.add(replica);
        return replica;
    }

    /** An HTTPS server that records each request's headers and answers 201. */
    private int fakeLeader(ReplicaCertificateAuthority.Issued certificate) throws Exception {
        Files.writeString(dir.resolve("fake.crt"), certificate.certificatePem());
        Files.writeString(dir.resolve("fake.key"), certificate.privateKeyPem());
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                        .setCertPath(dir.resolve("fake.crt").toString()).setKeyPath(dir.resolve("fake.key").toString())))
                .requestHandler(request -> {
                    captured.add(MultiMap.caseInsensitiveMultiMap().addAll(request.headers()));
                    request.response().setStatusCode(201).putHeader("content-type", "application/json").end("{}");
                })
                .listen(0, "127.0.0.1").await();
        return server.actualPort();
    }

    private HttpResponse<String> send(String base, String method, String path, String token, String body, List<String> headers)
            throws Exception {
        return sendWith(http, base, method, path, token, body, headers);
    }

    private static HttpResponse<String> sendWith(HttpClient client, String base, String method, String path, String token, String body,
                                             List<String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) request.header("Authorization", "Bearer " + token);
        if (body != null) request.header("Content-Type", "application/json");
        for (int i = 0; i < headers.size(); i += 2) request.header(headers.get(i), headers.get(i + 1));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Trusts the public serving certificate and the replica CA; presents clientOrNull as its certificate. */
    private HttpClient client(ReplicaCertificateAuthority.Issued clientOrNull) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("public", certificate(serving.certificatePem()));
        trust.setCertificateEntry("replica-ca", certificate(ca.certificatePem()));
        TrustManagerFactory trustFactory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustFactory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        KeyManagerFactory keyFactory = null;
        if (clientOrNull != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("client", privateKey(clientOrNull.privateKeyPem()), new char[0],
                    new Certificate[] {certificate(clientOrNull.certificatePem())});
            keyFactory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyFactory.init(keys, new char[0]);
        }
        context.init(keyFactory == null ? null : keyFactory.getKeyManagers(), trustFactory.getTrustManagers(), null);
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30)).sslContext(context).build();
    }

    private static Certificate certificate(String pem) throws Exception {
        return CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static PrivateKey privateKey(String pem) throws Exception {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
