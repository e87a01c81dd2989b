package dev.berth.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The manager's API as a user's HTTP client sees it. */
final class ManagerHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    ManagerHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    HttpResponse<String> send(String method, String path, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(20));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        }
    }

    JsonNode get(String path) {
        HttpResponse<String> response = send("GET", path, null, null);
        if (response.statusCode() == 404) return null;
        try {
            return JSON.readTree(response.body());
        } catch (Exception e) {
            throw new IllegalStateException("unreadable answer to GET " + path + ": " + response.body(), e);
        }
    }

    /** The Workload derived from a Job, found by its owner reference; null until it exists. */
    JsonNode workloadOfJob(String namespace, String jobName) {
        JsonNode list = get("/apis/kueue.x-k8s.io/v1beta2/namespaces/" + namespace + "/workloads");
        for (JsonNode workload : list.path("items")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (owner.path("name").asText().equals(jobName)) return workload;
            }
        }
        return null;
    }

    static String condition(JsonNode workload, String type) {
        if (workload == null) return null;
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    static String checkMessage(JsonNode workload) {
        if (workload == null) return null;
        for (JsonNode check : workload.path("status").path("admissionChecks")) return check.path("message").asText();
        return null;
    }
}
