package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The manager over real HTTP on loopback with its file store: submit, admit, finish, restart, refuse.
 * Its queues are the examples without the MultiKueue check, so admission completes in the manager alone.
 */
class ManagerEndToEndTest {
    private static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues().fileStore();

    @Test
    void aJobIsAdmittedHoldsQuotaUntilFinishedAndSurvivesARestart() throws Exception {
        HttpResponse<String> created = send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml",
                Files.readString(Path.of("..", "examples", "jobs", "sample-job.yaml")));
        assertThat(created.statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(Duration.ofSeconds(10)).until(() -> firstWorkload(), w -> w != null
                && "True".equals(condition(w, "Admitted")));
        String name = workload.path("metadata").path("name").asText();
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("team-a-queue");
        assertThat(workload.path("status").path("admission").path("clusterQueue").asText()).isEqualTo("team-a-cq");
        assertThat(gpuReserved()).isEqualTo("2");

        harness.restart();
        JsonNode afterRestart = harness.client().get(WORKLOADS + "/" + name);
        assertThat(condition(afterRestart, "Admitted")).isEqualTo("True");
        assertThat(gpuReserved()).isEqualTo("2");

        String finished = "{\"status\":{\"conditions\":[{\"type\":\"Finished\",\"status\":\"True\",\"reason\":\"Succeeded\","
                + "\"message\":\"Job finished successfully\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]}}";
        assertThat(send("PATCH", WORKLOADS + "/" + name + "/status", "application/merge-patch+json", finished).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(this::gpuReserved, "0"::equals);
    }

    @Test
    void aWorkloadWhoseLocalQueueIsMissingIsAcceptedAndWaitsWithKueuesMessage() throws Exception {
        String job = Files.readString(Path.of("..", "examples", "jobs", "sample-job.yaml")).replace("team-a-queue", "no-such-queue");
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml", job).statusCode()).isEqualTo(201);
        JsonNode workload = await().atMost(Duration.ofSeconds(10)).until(this::firstWorkload, w -> w != null
                && w.path("status").path("conditions").size() > 0);
        assertThat(workload.path("status").path("conditions").get(0).path("message").asText())
                .isEqualTo("LocalQueue no-such-queue doesn't exist");
    }

    @Test
    void anUnknownKindAndMalformedYamlAreBadRequests() throws Exception {
        HttpResponse<String> unknown = send("POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", "application/yaml",
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Banana\nmetadata:\n  name: x\n");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("kind");
        HttpResponse<String> malformed = send("POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", "application/yaml", "kind: [unclosed\n");
        assertThat(malformed.statusCode()).isEqualTo(400);
    }

    private JsonNode firstWorkload() {
        List<JsonNode> workloads = harness.client().items(WORKLOADS);
        return workloads.isEmpty() ? null : workloads.get(0);
    }

    private String gpuReserved() {
        JsonNode queue = harness.client().get(ManagerClient.KUEUE + "/clusterqueues/team-a-cq");
        for (JsonNode flavor : queue.path("status").path("flavorsReservation")) {
            if (!flavor.path("name").asText().equals("a100")) continue;
            for (JsonNode resource : flavor.path("resources")) {
                if (resource.path("name").asText().equals("nvidia.com/gpu")) return resource.path("total").asText();
            }
        }
        return "missing";
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) {
        return harness.client().send(method, path, contentType, body);
    }
}
