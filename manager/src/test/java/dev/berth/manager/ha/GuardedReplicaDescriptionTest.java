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
import dev.berth.manager.testing.NeedsPostgres;
import dev.berth.protocol.ManagerReplicas;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class 1 of issue 12 on a replica's own port: its description ({@link ManagerReplicas#REPLICA_PATH})
 * was answered before the guard. Now it is refused without a token (401, audited), refused under any
 * non-canonical spelling (400), and answered to an admin. The request line is written as-is on a TLS
 * socket so no client normalises it first.
 */
@NeedsPostgres
class GuardedReplicaDescriptionTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final String ADMIN = "admin-token-describe-0123";
    @TempDir
    Path dir;
    private ManagerReplica replica;
    private SSLContext tls;

    @AfterEach
    void tearDown() {
        if (replica != null) replica.close();
    }

    @Test
    void theDescriptionIsBehindTheGuard() throws Exception {
        PostgresConfig database = PostgresTestDatabase.freshSchema("ha_describe_guard");
        SecurityOptions security = security();
        int hazelcastPort = freePort();
        ReplicaOptions options = ReplicaOptions.loopback("solo", 0)
                .inCluster("berth-describe-" + UUID.randomUUID(), hazelcastPort, List.of("127.0.0.1:" + hazelcastPort))
                .checkingLeadershipEvery(Duration.ofMillis(500));
        PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC());
        ReplicaTrust trust = ReplicaCertificateAuthority.generate("berth-replica-ca", Duration.ofDays(1), Clock.systemUTC())
                .writeTrust(dir.resolve("replicas"), "solo", Set.of("solo"), 0);
        replica = ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS)
                .secure(security.withoutTls()), security, trust);
        await().atMost(Duration.ofSeconds(40)).until(replica::isLeader);

        String anonymous = send(ManagerReplicas.REPLICA_PATH, null);
        assertThat(anonymous).startsWith("HTTP/1.1 401").doesNotContain("replicaId");
        for (String variant : List.of(ManagerReplicas.REPLICA_PATH + "/", ManagerReplicas.REPLICA_PATH + "?x=1",
                ManagerReplicas.REPLICA_PATH.toUpperCase())) {
            assertThat(send(variant, null)).as(variant).startsWith("HTTP/1.1 401").doesNotContain("replicaId");
        }
        for (String variant : List.of("/dashboard/.." + ManagerReplicas.REPLICA_PATH, "/dashboard/%2e%2e" + ManagerReplicas.REPLICA_PATH,
                "/" + ManagerReplicas.REPLICA_PATH, ManagerReplicas.REPLICA_PATH.replace("/replica", "%2Freplica"))) {
            assertThat(send(variant, null)).as(variant).startsWith("HTTP/1.1 400").doesNotContain("replicaId");
        }
        assertThat(Files.readString(dir.resolve("audit.log"))).contains(ManagerReplicas.REPLICA_PATH).contains("\"code\":401");
        assertThat(send(ManagerReplicas.REPLICA_PATH, ADMIN)).startsWith("HTTP/1.1 200").contains("\"replicaId\":\"solo\"");
    }

    private SecurityOptions security() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate("berth-describe", List.of("localhost"), List.of("127.0.0.1"),
                Duration.ofDays(1), Clock.systemUTC());
        Files.writeString(dir.resolve("tls.crt"), certificate.certificatePem());
        Files.writeString(dir.resolve("tls.key"), certificate.privateKeyPem());
        Files.writeString(dir.resolve("tokens.csv"), ADMIN + ",admin,1,\"system:masters\"\n");
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("berth", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate.certificatePem().getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        tls = SSLContext.getInstance("TLS");
        tls.init(null, factory.getTrustManagers(), null);
        return new SecurityOptions(Optional.of(dir.resolve("tokens.csv")), Optional.empty(),
                Optional.of(new SecurityOptions.Tls(dir.resolve("tls.crt"), dir.resolve("tls.key"))),
                SecurityOptions.DEFAULT_TENANT_RATE, SecurityOptions.DEFAULT_ADMIN_RATE, dir.resolve("audit.log"));
    }

    /** The whole answer to a GET whose target is written exactly as given. */
    private String send(String target, String token) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", replica.port()), 10_000);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", replica.port(), true)) {
            socket.setSoTimeout(30_000);
            String request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) out.write(buffer, 0, n);
            } catch (javax.net.ssl.SSLException closedWithoutCloseNotify) {
                // the answer is complete
            }
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
