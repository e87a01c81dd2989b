package dev.berth.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ManagerClient;
import java.net.http.HttpResponse;

/** The manager's API as a user's HTTP client sees it: the shared {@link ManagerClient} and the reads these tests use. */
final class ManagerHttp extends ManagerClient {
    ManagerHttp(String baseUrl) {
        super(baseUrl);
    }

    /** Any answer's JSON (a Status for a refusal, so a test polling through a failover keeps polling); null on 404. */
    @Override
    public JsonNode get(String path) {
        HttpResponse<String> response = send("GET", path, null, null);
        return response.statusCode() == 404 ? null : json(response);
    }

    /** The Workload derived from a Job, found by its owner reference; null until it exists. */
    JsonNode workloadOfJob(String namespace, String jobName) {
        JsonNode list = get(KUEUE + "/namespaces/" + namespace + "/workloads");
        for (JsonNode workload : list.path("items")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (owner.path("name").asText().equals(jobName)) return workload;
            }
        }
        return null;
    }

    static String checkMessage(JsonNode workload) {
        if (workload == null) return null;
        for (JsonNode check : workload.path("status").path("admissionChecks")) return check.path("message").asText();
        return null;
    }
}
