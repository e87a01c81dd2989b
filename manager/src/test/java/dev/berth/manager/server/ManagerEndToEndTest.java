package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.FileObjectStore;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manager over real HTTP on loopback with its file store: submit, admit, finish, restart, refuse.
 * Its queues are the examples without the MultiKueue check, so admission completes in the manager alone.
 */
class ManagerEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";

    @TempDir
    Path data;
    private Vertx vertx;
    private BerthManager manager;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        startManager();
        assertThat(manager.loadManifests(Path.of("src", "test", "resources", "e2e-queues"))).isGreaterThan(5);
    }

    private void startManager() {
        manager = new BerthManager(FileObjectStore.open(data, Clock.systemUTC()), Clock.systemUTC(), SchedulerOptions.DEFAULTS);
        manager.start(vertx, "127.0.0.1", 0).await();
    }

    @AfterEach
    void stop() {
        manager.close();
        vertx.close().await();
    }

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

        manager.close();
        startManager();
        JsonNode afterRestart = JSON.readTree(send("GET", WORKLOADS + "/" + name, null, null).body());
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

    private JsonNode firstWorkload() throws Exception {
        JsonNode list = JSON.readTree(send("GET", WORKLOADS, null, null).body());
        return list.path("items").size() == 0 ? null : list.path("items").get(0);
    }

    private String gpuReserved() throws Exception {
        JsonNode queue = JSON.readTree(send("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq", null, null).body());
        for (JsonNode flavor : queue.path("status").path("flavorsReservation")) {
            if (!flavor.path("name").asText().equals("a100")) continue;
            for (JsonNode resource : flavor.path("resources")) {
                if (resource.path("name").asText().equals("nvidia.com/gpu")) return resource.path("total").asText();
            }
        }
        return "missing";
    }

    private static String condition(JsonNode workload, String type) {
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
