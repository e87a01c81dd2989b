package dev.berth.manager.controller;

import static dev.berth.manager.controller.ClusterQueueReferencesHttpTest.flavor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An admission check's controller writing the Workload's status over real HTTP on loopback: Retry
 * without requeueAfterSeconds backs off with Kueue's ProvisioningRequest default (60 s), and a Ready
 * check's podSetUpdates survive the manager's own status writes.
 */
class AdmissionCheckStatusHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final String WORKLOADS = KUEUE + "/namespaces/late/workloads";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore();

    @BeforeEach
    void start() throws Exception {
        assertThat(send("POST", "/api/v1/namespaces", "application/yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: late\n").statusCode())
                .isEqualTo(201);
        assertThat(send("POST", KUEUE + "/resourceflavors", "application/yaml", flavor("f")).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/admissionchecks", "application/yaml", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\n"
                + "metadata:\n  name: prov\nspec:\n  controllerName: example.com/prov\n").statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/clusterqueues", "application/yaml", ClusterQueueReferencesHttpTest.clusterQueue("cq", "f", "prov"))
                .statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/namespaces/late/localqueues", "application/yaml", ClusterQueueReferencesHttpTest.localQueue("cq"))
                .statusCode()).isEqualTo(201);
        assertThat(send("POST", "/apis/batch/v1/namespaces/late/jobs", "application/yaml", ClusterQueueReferencesHttpTest.job()).statusCode())
                .isEqualTo(201);
    }

    @Test
    void aRetryWithoutRequeueAfterSecondsBacksOffSixtySecondsBeforeTheWorkloadIsQueuedAgain() throws Exception {
        String name = reservedWorkload();
        Instant before = Instant.now();

        writeCheck(name, "{\"name\":\"prov\",\"state\":\"Retry\",\"message\":\"no capacity\",\"lastTransitionTime\":\"" + Instant.now() + "\"}");

        JsonNode evicted = await().atMost(Duration.ofSeconds(10)).until(() -> workload(name),
                w -> w.path("status").path("requeueState").has("requeueAt"));
        Instant requeueAt = Instant.parse(evicted.path("status").path("requeueState").path("requeueAt").asText());
        assertThat(requeueAt).isBetween(before.plusSeconds(59), Instant.now().plusSeconds(61));
        assertThat(conditionOrEmpty(evicted, "QuotaReserved").path("status").asText()).isEqualTo("False");
        assertThat(conditionOrEmpty(evicted, "Evicted").path("message").asText())
                .isEqualTo("Evicted due to AdmissionCheck in Retry state: \"prov\" (no capacity)");
        assertThat(evicted.path("status").path("admissionChecks").get(0).path("retryCount").asInt()).isEqualTo(1);
        // Housekeeping runs every second: two of them later the workload is still waiting out its backoff.
        await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(conditionOrEmpty(workload(name), "QuotaReserved").path("status").asText()).isEqualTo("False");
    }

    @Test
    void aReadyChecksPodSetUpdatesStayOnTheStatusAfterTheWorkloadIsAdmitted() throws Exception {
        String name = reservedWorkload();

        writeCheck(name, "{\"name\":\"prov\",\"state\":\"Ready\",\"message\":\"\",\"lastTransitionTime\":\"" + Instant.now() + "\","
                + "\"podSetUpdates\":[{\"name\":\"main\",\"nodeSelector\":{\"pool\":\"gpu\"}}]}");

        JsonNode admitted = await().atMost(Duration.ofSeconds(10)).until(() -> workload(name),
                w -> "True".equals(conditionOrEmpty(w, "Admitted").path("status").asText()));
        assertThat(admitted.path("status").path("admissionChecks").get(0).path("podSetUpdates").get(0).path("nodeSelector")
                .path("pool").asText()).isEqualTo("gpu");
    }

    private String reservedWorkload() throws Exception {
        JsonNode reserved = await().atMost(Duration.ofSeconds(10)).until(() -> {
            JsonNode items = JSON.readTree(send("GET", WORKLOADS, null, null).body()).path("items");
            return items.size() == 0 ? null : items.get(0);
        }, w -> w != null && "True".equals(conditionOrEmpty(w, "QuotaReserved").path("status").asText()));
        return reserved.path("metadata").path("name").asText();
    }

    private void writeCheck(String name, String check) throws Exception {
        HttpResponse<String> patched = send("PATCH", WORKLOADS + "/" + name + "/status", "application/merge-patch+json",
                "{\"status\":{\"admissionChecks\":[" + check + "]}}");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    }

    private JsonNode workload(String name) throws Exception {
        return JSON.readTree(send("GET", WORKLOADS + "/" + name, null, null).body());
    }

    /** The whole condition, or an empty object when there is none (so .path(...) reads "" rather than failing). */
    private static JsonNode conditionOrEmpty(JsonNode object, String type) {
        JsonNode found = ManagerClient.findCondition(object, type);
        return found == null ? JSON.createObjectNode() : found;
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        return harness.client().send(method, path, contentType, body);
    }
}
