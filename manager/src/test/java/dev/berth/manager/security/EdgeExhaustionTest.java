package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.security.RawHttps.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class 5 of issue 12, at the edge: what one client can hold. Over real TLS, with small injected
 * bounds: a connection that trickles its headers is closed at the header read timeout, an idle
 * keep-alive connection at the idle timeout (a live stream is not idle); anonymous requests are
 * rate-limited per address (probes aside); dashboard streams are capped per user and in all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeExhaustionTest {
    static final Duration HEADER_READ = Duration.ofSeconds(1);
    static final Duration IDLE = Duration.ofSeconds(2);
    @TempDir
    static Path dir;
    SecureManager api;
    RawHttps raw;
    final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    final List<SSLSocket> streams = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty(), EdgeLimits.DEFAULTS
                .withAnonymousRate(new SecurityOptions.RateLimit(1, 3))
                .withDashboardStreams(2, 3)
                .withConnectionTimeouts(HEADER_READ, IDLE));
        raw = new RawHttps(dir.resolve("tls.crt"), api.manager.port());
        String rbac = "/apis/rbac.authorization.k8s.io/v1";
        assertThat(api.send("POST", rbac + "/clusterroles", SecureManager.ADMIN, "application/json",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"dashboard-viewer\"},"
                        + "\"rules\":[{\"nonResourceURLs\":[\"/dashboard/stream\"],\"verbs\":[\"get\"]}]}").code()).isEqualTo(201);
        assertThat(api.send("POST", rbac + "/clusterrolebindings", SecureManager.ADMIN, "application/json",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRoleBinding\",\"metadata\":{\"name\":\"teams-view-dashboard\"},"
                        + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"dashboard-viewer\"},"
                        + "\"subjects\":[{\"kind\":\"Group\",\"name\":\"team-a\"},{\"kind\":\"Group\",\"name\":\"team-b\"}]}").code())
                .isEqualTo(201);
    }

    @AfterAll
    void stop() throws Exception {
        trickle.shutdownNow();
        for (SSLSocket stream : streams) stream.close();
        api.close();
    }

    @Test
    void aConnectionThatTricklesItsHeadersIsClosedAtTheHeaderReadTimeout() throws Exception {
        SSLSocket socket = raw.open();
        socket.setSoTimeout(100);
        socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        long opened = System.nanoTime();
        trickle.scheduleAtFixedRate(() -> {
            try {
                socket.getOutputStream().write("X".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            } catch (IOException closed) {
                throw new IllegalStateException("closed", closed);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        StringBuilder answer = new StringBuilder();
        await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(50)).until(() -> closed(socket, answer));
        assertThat(Duration.ofNanos(System.nanoTime() - opened)).isLessThan(HEADER_READ.multipliedBy(4));
        assertThat(answer.toString()).as("no answer to a request whose headers never ended").doesNotContain("200");
        socket.close();
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAtTheIdleTimeout() throws Exception {
        SSLSocket socket = raw.open();
        socket.setSoTimeout(100);
        socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        StringBuilder answer = new StringBuilder();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            closed(socket, answer);
            return answer.toString().endsWith("ok");
        });
        assertThat(answer.toString()).startsWith("HTTP/1.1 200");
        long idleFrom = System.nanoTime();
        await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(50)).until(() -> closed(socket, answer));
        assertThat(Duration.ofNanos(System.nanoTime() - idleFrom)).isGreaterThanOrEqualTo(IDLE.minusMillis(600));
        socket.close();
    }

    @Test
    void aLiveStreamIsNotIdle() throws Exception {
        SSLSocket stream = openStream(SecureManager.ADMIN);
        assertThat(stream).isNotNull();
        stream.setSoTimeout(100);
        StringBuilder received = new StringBuilder();
        await().during(IDLE.multipliedBy(2)).atMost(IDLE.multipliedBy(4)).until(() -> !closed(stream, received));
        stream.close();
        streams.remove(stream);
    }

    @Test
    void anonymousRequestsAreRateLimitedPerAddressAndTheirRefusalsAreNotAudited() throws Exception {
        int auditBefore = api.auditLines().size();
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 8; i++) codes.add(raw.send("GET", "/apis/batch/v1/namespaces/team-b/jobs").code());
        assertThat(codes).contains(401, 429).containsOnly(401, 429);
        int refusedAnonymously = (int) codes.stream().filter(c -> c == 401).count();
        assertThat(refusedAnonymously).isLessThanOrEqualTo(4);
        assertThat(api.auditLines()).as("the 401s are audited, the 429s are not").hasSize(auditBefore + refusedAnonymously);
        Answer limited = raw.send("GET", "/dashboard/app.js");
        assertThat(limited.code()).isEqualTo(429);
        assertThat(limited.head()).containsIgnoringCase("Retry-After:");
        for (int i = 0; i < 10; i++) {
            assertThat(raw.send("GET", "/healthz").code()).as("probes are not limited").isEqualTo(200);
            assertThat(raw.send("GET", "/version").code()).as("nor is the version kubectl asks for").isEqualTo(200);
        }
        assertThat(raw.send("GET", "/apis/batch/v1/namespaces/team-b/jobs", "Authorization: Bearer " + SecureManager.BOB).code())
                .as("an authenticated caller has its own limit").isEqualTo(200);
    }

    @Test
    void dashboardStreamsAreCappedPerUserAndInAll() throws Exception {
        assertThat(openStream(SecureManager.ALICE)).isNotNull();
        assertThat(openStream(SecureManager.ALICE)).isNotNull();
        Answer third = raw.send("GET", "/dashboard/stream", "Authorization: Bearer " + SecureManager.ALICE);
        assertThat(third.code()).isEqualTo(429);
        assertThat(third.body()).contains("per user");
        assertThat(openStream(SecureManager.BOB)).as("another user still has room").isNotNull();
        Answer overall = raw.send("GET", "/dashboard/stream", "Authorization: Bearer " + SecureManager.ADMIN);
        assertThat(overall.code()).isEqualTo(429);
        assertThat(overall.body()).contains("limit of 3");
        SSLSocket first = streams.get(0);
        first.close();
        streams.remove(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            SSLSocket again = openStream(SecureManager.ALICE);
            return again != null;
        });
        for (SSLSocket stream : List.copyOf(streams)) stream.close();
        streams.clear();
    }

    /** Opens a dashboard stream and reads its head; null when refused. */
    private SSLSocket openStream(String token) throws IOException {
        SSLSocket socket = raw.open();
        socket.getOutputStream().write(("GET /dashboard/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().contains("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) break;
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 200")) {
            socket.close();
            return null;
        }
        streams.add(socket);
        return socket;
    }

    /** Whether the server has closed the connection; appends what it sent meanwhile. */
    private static boolean closed(SSLSocket socket, StringBuilder received) {
        byte[] buffer = new byte[4096];
        try {
            int n = socket.getInputStream().read(buffer);
            if (n < 0) return true;
            received.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
            return false;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
