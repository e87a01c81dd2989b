package dev.berth.manager.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The manager's Kubernetes API as a user's HTTP client sees it: create, get, list, patch and delete
 * with their status codes and JSON. The one HTTP client the end-to-end, system and chaos tests share
 * (it grew out of the chaos drills' ManagerApi); optionally with a bearer token and a trusted CA.
 */
public class ManagerClient {
    public static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    public static final String JSON_TYPE = "application/json";
    public static final String YAML_TYPE = "application/yaml";
    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String JSON_PATCH = "application/json-patch+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String baseUrl;
    private final Duration requestTimeout;
    private final String bearerTokenOrNull;

    /** Plain HTTP to baseUrl, 5 s to connect and 20 s an answer. */
    public ManagerClient(String baseUrl) {
        this(baseUrl, Duration.ofSeconds(5), Duration.ofSeconds(20));
    }

    public ManagerClient(String baseUrl, Duration connectTimeout, Duration requestTimeout) {
        this(HttpClient.newBuilder().connectTimeout(connectTimeout).build(), baseUrl, requestTimeout, null);
    }

    private ManagerClient(HttpClient http, String baseUrl, Duration requestTimeout, String bearerTokenOrNull) {
        this.http = http;
        this.baseUrl = baseUrl;
        this.requestTimeout = requestTimeout;
        this.bearerTokenOrNull = bearerTokenOrNull;
    }

    /** The same client sending {@code Authorization: Bearer token}. */
    public ManagerClient withToken(String token) {
        return new ManagerClient(http, baseUrl, requestTimeout, token);
    }

    /** The same client (same connections) sending no token, as a browser or an anonymous caller. */
    public ManagerClient withoutToken() {
        return new ManagerClient(http, baseUrl, requestTimeout, null);
    }

    /** Plain HTTP/1.1 only (one request per connection at a time, no h2c upgrade), as curl and most load generators speak it. */
    public static ManagerClient http1(String baseUrl, Duration connectTimeout, Duration requestTimeout) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
        return new ManagerClient(http, baseUrl, requestTimeout, null);
    }

    /** An HTTPS client (HTTP/1.1) trusting only the given PEM certificate. */
    public static ManagerClient trusting(String baseUrl, String certificatePem) {
        return trusting(baseUrl, certificatePem, Duration.ofSeconds(30));
    }

    /** As {@link #trusting(String, String)}, waiting at most requestTimeout for an answer. */
    public static ManagerClient trusting(String baseUrl, String certificatePem, Duration requestTimeout) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).sslContext(sslContextTrusting(certificatePem)).build();
        return new ManagerClient(http, baseUrl, requestTimeout, null);
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The answer, or empty when the manager could not be reached at all (refused, reset, timed out). */
    public Optional<HttpResponse<String>> trySend(String method, String path, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(requestTimeout);
        if (bearerTokenOrNull != null) request.header("Authorization", "Bearer " + bearerTokenOrNull);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            return Optional.of(http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
        } catch (java.io.IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * A request with headers of the caller's choosing (Accept, Content-Type of a protobuf body) and any body; the
     * answer whatever its status code; throws only when the manager is unreachable.
     */
    public HttpResponse<String> exchange(String method, String path, Map<String, String> headers, HttpRequest.BodyPublisher body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(requestTimeout).method(method, body);
        if (bearerTokenOrNull != null) request.header("Authorization", "Bearer " + bearerTokenOrNull);
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(method + " " + baseUrl + path + ": the manager is unreachable", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(method + " " + baseUrl + path + ": interrupted", e);
        }
    }

    /**
     * The lowest level: a request of the caller's making (repeated headers, a byte or streamed body) with this client's
     * base URL, timeout and token, answered through handler (bytes, an InputStream for a watch or event stream);
     * HttpClient's exceptions as they are, for tests that tell a refused or reset connection from an answer.
     */
    public <T> HttpResponse<T> sendRaw(String method, String path, HttpRequest.BodyPublisher body, Consumer<HttpRequest.Builder> headers,
                                       HttpResponse.BodyHandler<T> handler) throws java.io.IOException, InterruptedException {
        return http.send(request(method, path, body, headers), handler);
    }

    /** {@link #sendRaw} without waiting: a watch opened while the test goes on (a body of lines read as they come). */
    public <T> CompletableFuture<HttpResponse<T>> sendRawAsync(String method, String path, HttpRequest.BodyPublisher body,
                                                               Consumer<HttpRequest.Builder> headers, HttpResponse.BodyHandler<T> handler) {
        return http.sendAsync(request(method, path, body, headers), handler);
    }

    private HttpRequest request(String method, String path, HttpRequest.BodyPublisher body, Consumer<HttpRequest.Builder> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(requestTimeout).method(method, body);
        if (bearerTokenOrNull != null) request.header("Authorization", "Bearer " + bearerTokenOrNull);
        headers.accept(request);
        return request.build();
    }

    /** The answer whatever its status code; throws only when the manager is unreachable. */
    public HttpResponse<String> send(String method, String path, String contentType, String body) {
        return trySend(method, path, contentType, body)
                .orElseThrow(() -> new IllegalStateException(method + " " + baseUrl + path + ": the manager is unreachable"));
    }

    /** Creates an object; fails with the manager's answer unless it is 201 Created. Returns what was stored. */
    public JsonNode create(String path, String json) {
        return expect(201, "POST", path, send("POST", path, JSON_TYPE, json));
    }

    /** Creates an object built by {@link KueueObjects}. */
    public JsonNode create(KueueObjects.KubeObject object) {
        return create(object.collectionPath(), object.toJson());
    }

    /** The object, or null on 404; fails on any other code but 200. */
    public JsonNode get(String path) {
        HttpResponse<String> response = send("GET", path, null, null);
        if (response.statusCode() == 404) return null;
        return expect(200, "GET", path, response);
    }

    public List<JsonNode> items(String path) {
        List<JsonNode> items = new ArrayList<>();
        JsonNode list = get(path);
        if (list != null) list.path("items").forEach(items::add);
        return items;
    }

    /** A merge patch; fails unless 200. */
    public JsonNode mergePatch(String path, String json) {
        return expect(200, "PATCH", path, send("PATCH", path, MERGE_PATCH, json));
    }

    /** A delete; returns the status code (200 or 202 when deleted, 404 when absent). */
    public int delete(String path) {
        return send("DELETE", path, null, null).statusCode();
    }

    public boolean isReady() {
        return trySend("GET", "/readyz", null, null).map(r -> r.statusCode() == 200).orElse(false);
    }

    /** The body as JSON (a Status for refusals); a text node when it is not JSON. */
    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (Exception e) {
            return JSON.getNodeFactory().textNode(response.body());
        }
    }

    /** The status of condition {@code type} ("True", "False"), or null when the object has none. */
    public static String condition(JsonNode object, String type) {
        JsonNode found = findCondition(object, type);
        return found == null ? null : found.path("status").asText();
    }

    /** The reason of condition {@code type}, or null when the object has none. */
    public static String reason(JsonNode object, String type) {
        JsonNode found = findCondition(object, type);
        return found == null ? null : found.path("reason").asText();
    }

    /** The whole condition {@code type} of an object's status, or null. */
    public static JsonNode findCondition(JsonNode object, String type) {
        if (object == null) return null;
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition;
        }
        return null;
    }

    private static JsonNode expect(int code, String method, String path, HttpResponse<String> response) {
        if (response.statusCode() != code) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (Exception e) {
            throw new IllegalStateException("unreadable answer to " + method + " " + path + ": " + response.body(), e);
        }
    }

    /** A TLS context that trusts only the given PEM certificate (the manager's self-signed one). */
    public static SSLContext sslContextTrusting(String pem) {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("berth", CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException("cannot trust the given certificate: " + e.getMessage(), e);
        }
    }
}
