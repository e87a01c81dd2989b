package dev.berth.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The manager's Kubernetes API, reached through the port its container maps to localhost. */
public final class ManagerApi {
    static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String baseUrl;

    public ManagerApi(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The answer, or empty when the manager could not be reached at all (refused, reset, timed out). */
    public Optional<HttpResponse<String>> trySend(String method, String path, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(15));
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

    public HttpResponse<String> send(String method, String path, String contentType, String body) {
        return trySend(method, path, contentType, body)
                .orElseThrow(() -> new IllegalStateException(method + " " + baseUrl + path + ": the manager is unreachable"));
    }

    /** Creates an object; fails with the manager's answer unless it is 201 Created. */
    public void create(String path, String json) {
        HttpResponse<String> response = send("POST", path, "application/json", json);
        if (response.statusCode() != 201) {
            throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    public JsonNode get(String path) {
        HttpResponse<String> response = send("GET", path, null, null);
        if (response.statusCode() == 404) return null;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (Exception e) {
            throw new IllegalStateException("unreadable answer to GET " + path + ": " + response.body(), e);
        }
    }

    public boolean isReady() {
        return trySend("GET", "/readyz", null, null).map(r -> r.statusCode() == 200).orElse(false);
    }

    public List<JsonNode> items(String path) {
        List<JsonNode> items = new ArrayList<>();
        get(path).path("items").forEach(items::add);
        return items;
    }

    public List<JsonNode> workloads(String namespace) {
        return items(KUEUE + "/namespaces/" + namespace + "/workloads");
    }

    public List<JsonNode> clusterQueues() {
        return items(KUEUE + "/clusterqueues");
    }

    public JsonNode multiKueueCluster(String name) {
        return get(KUEUE + "/multikueueclusters/" + name);
    }

    /** The status of condition {@code type} ("True", "False"), or null when the object has none. */
    public static String condition(JsonNode object, String type) {
        if (object == null) return null;
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    /** The name of the Job a Workload was derived from (its owner), or null. */
    public static String ownerJob(JsonNode workload) {
        for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
            if ("Job".equals(owner.path("kind").asText())) return owner.path("name").asText();
        }
        return null;
    }
}
