package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Capacity on request end to end: one virtual GPU cluster in its own process that can grow its h100 pool to three
 * nodes (a simulated provisioner that fails its first request), its agent, and the manager with
 * examples/provisioning (a ClusterQueue with the MultiKueue check and a provisioning check, retryStrategy
 * backoff 2 s). A job needing two whole h100 nodes fits nowhere now: it is dispatched to the cluster that can
 * grow, whose agent asks for the nodes; the first request fails and is retried after the backoff under the next
 * attempt's name; the second is provisioned, and the job is admitted and runs on the new nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProvisioningRequestSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-provisioning-test");
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec("h100", "h100:1x8,cpu:1|h100:max=3,delay=1,fail=1", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue"), Path.of("..", "examples", "provisioning")));
        api = new ManagerHttp(system.apiUrl());
        await().atMost(PATIENCE).until(() -> "True".equals(api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters")
                .path("items").path(0).path("status").path("conditions").path(0).path("status").asText()));
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void aFailedProvisioningIsRetriedWithBackoffThenTheScaleUpAdmitsAndRunsTheJob() {
        String job = Jobs.job("team-a", "grow", "scale-queue", 2, 1, 8, "PT2S", "NVIDIA-H100-80GB-HBM3");
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml", job).statusCode()).isEqualTo(201);

        JsonNode retried = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "grow"),
                w -> w != null && check(w, "scale-up").path("retryCount").asInt() >= 1);
        String workload = retried.path("metadata").path("name").asText();
        assertThat(check(retried, "scale-up").path("retryCount").asInt()).isEqualTo(1);

        JsonNode finished = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "grow"),
                w -> "True".equals(ManagerHttp.condition(w, "Finished")));
        JsonNode scaleUp = check(finished, "scale-up");
        assertThat(scaleUp.path("state").asText()).isEqualTo("Ready");
        assertThat(scaleUp.path("message").asText()).isEqualTo("2 h100 node(s) added");
        assertThat(scaleUp.path("retryCount").asInt()).isEqualTo(1);
        assertThat(finished.path("status").path("dispatchHistory").toString()).contains("h100");
        assertThat(workload).isNotBlank();
    }

    private static JsonNode check(JsonNode workload, String name) {
        for (JsonNode check : workload.path("status").path("admissionChecks")) {
            if (name.equals(check.path("name").asText())) return check;
        }
        return workload.path("missing");
    }
}
