package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.security.SecurityOptions.RateLimit;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import io.vertx.core.Vertx;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A BerthManager (started by a {@link ManagerHarness}) serving HTTPS on a loopback port with a token file (admin, alice
 * of team-a, bob of team-b), the example queues and the example RBAC objects, plus an HTTPS client trusting its
 * self-signed certificate.
 */
final class SecureManager implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ADMIN = "admin-token-0123456789";
    static final String ALICE = "alice-token-0123456789";
    static final String BOB = "bob-token-0123456789";
    static final Path EXAMPLES = Path.of("..", "examples");

    final Path dir;
    final Path auditFile;
    final MemoryObjectStore store = new MemoryObjectStore();
    final BerthManager manager;
    final Vertx vertx;
    /** HTTP/1.1, trusting the manager's certificate, sending the token each request names. */
    final ManagerClient client;
    final String base;
    final String certificatePem;
    private final ManagerHarness harness;

    record Reply(int code, JsonNode body, HttpHeaders headers) {
        String message() {
            return body.path("message").asText();
        }
    }

    SecureManager(Path dir, RateLimit tenantRate, Optional<OidcOptions> oidc) throws Exception {
        this(dir, tenantRate, oidc, EdgeLimits.DEFAULTS);
    }

    /** With the given limits on anonymous callers, dashboard streams and slow connections. */
    SecureManager(Path dir, RateLimit tenantRate, Optional<OidcOptions> oidc, EdgeLimits edge) throws Exception {
        this.dir = dir;
        SelfSignedCertificate certificate = SelfSignedCertificate.generate("berth-test", List.of("localhost"), List.of("127.0.0.1"),
                Duration.ofDays(1), Clock.systemUTC());
        Files.writeString(dir.resolve("tls.crt"), certificate.certificatePem());
        Files.writeString(dir.resolve("tls.key"), certificate.privateKeyPem());
        Files.writeString(dir.resolve("tokens.csv"), String.join("\n",
                ADMIN + ",admin,1,\"system:masters\"",
                ALICE + ",alice,2,\"team-a\"",
                BOB + ",bob,3,team-b", ""));
        auditFile = dir.resolve("audit").resolve("audit.log");
        SecurityOptions options = new SecurityOptions(Optional.of(dir.resolve("tokens.csv")), oidc,
                Optional.of(new SecurityOptions.Tls(dir.resolve("tls.crt"), dir.resolve("tls.key"))),
                tenantRate, SecurityOptions.DEFAULT_ADMIN_RATE, auditFile).withEdge(edge);
        certificatePem = certificate.certificatePem();
        harness = ManagerHarness.empty().store(store).secured(options, certificatePem)
                .manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"));
        harness.start();
        manager = harness.manager();
        vertx = harness.vertx();
        base = harness.baseUrl();
        client = ManagerClient.trusting(base, certificatePem, Duration.ofSeconds(60));
    }

    Reply sendBytes(String method, String path, String token, String contentType, byte[] body) throws Exception {
        return sendBytes(method, path, token, contentType, body, Map.of());
    }

    /** As {@link #sendBytes(String, String, String, String, byte[])}, with extra headers (each may repeat). */
    Reply sendBytes(String method, String path, String token, String contentType, byte[] body, Map<String, List<String>> headers) throws Exception {
        HttpRequest.BodyPublisher content = body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body);
        HttpResponse<byte[]> response = client.sendRaw(method, path, content, request -> {
            headers.forEach((name, values) -> values.forEach(value -> request.header(name, value)));
            if (token != null) request.header("Authorization", "Bearer " + token);
            if (contentType != null) request.header("Content-Type", contentType);
        }, HttpResponse.BodyHandlers.ofByteArray());
        boolean isJson = response.headers().firstValue("content-type").orElse("").contains("json");
        JsonNode json = response.body().length == 0 || !isJson ? JSON.createObjectNode() : JSON.readTree(response.body());
        return new Reply(response.statusCode(), json, response.headers());
    }

    Reply get(String path, String token) throws Exception {
        return sendBytes("GET", path, token, null, null);
    }

    Reply send(String method, String path, String token, String contentType, String body) throws Exception {
        return sendBytes(method, path, token, contentType, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    /** Everything stored except status and resourceVersion, to compare before and after a refused request. */
    List<String> contents() {
        List<String> all = new ArrayList<>();
        for (String resource : List.of("kueue.x-k8s.io/clusterqueues", "kueue.x-k8s.io/resourceflavors", "kueue.x-k8s.io/localqueues",
                "kueue.x-k8s.io/workloads", "kueue.x-k8s.io/workloadpriorityclasses", "kueue.x-k8s.io/cohorts", "batch/jobs",
                "/namespaces", "/secrets", "/pods", "jobset.x-k8s.io/jobsets", "scheduling.k8s.io/priorityclasses",
                "rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/clusterroles",
                "rbac.authorization.k8s.io/rolebindings", "rbac.authorization.k8s.io/clusterrolebindings")) {
            for (StoredObject stored : store.list(resource, null)) {
                ObjectNode copy = stored.object().deepCopy();
                copy.remove("status");
                ((ObjectNode) copy.path("metadata")).remove("resourceVersion");
                all.add(resource + " " + copy);
            }
        }
        return all;
    }

    List<String> auditLines() throws Exception {
        return Files.exists(auditFile) ? Files.readAllLines(auditFile) : List.of();
    }

    @Override
    public void close() {
        harness.close();
    }
}
