package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.PodsReadyPolicy;
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
 * waitForPodsReady end to end: the manager with waitForPodsReady enabled, one virtual GPU cluster in
 * its own process with its agent. The agent reports the readiness of the pods the cluster's kubelet
 * simulator starts, and the manager's Workload carries Kueue's PodsReady condition from it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodsReadySystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-pods-ready-test");
        SchedulerOptions options = SchedulerOptions.DEFAULTS.withWaitForPodsReady(PodsReadyPolicy.enabled(Duration.ofMinutes(5)));
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec("h100", "h100:2x8,cpu:2", false)),
                new MemoryObjectStore(), options, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        await().atMost(PATIENCE).until(() -> "True".equals(api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters")
                .path("items").path(0).path("status").path("conditions").path(0).path("status").asText()));
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void podsReadyTurnsTrueOnTheManagersWorkloadOnceTheWorkersPodsAreReady() {
        String job = Jobs.job("team-a", "ready", "team-a-queue", 2, 1, 1, "PT120S", "NVIDIA-H100-80GB-HBM3");
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml", job).statusCode()).isEqualTo(201);

        JsonNode workload = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "ready"),
                w -> "True".equals(ManagerHttp.condition(w, "PodsReady")));

        JsonNode podsReady = null;
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if ("PodsReady".equals(condition.path("type").asText())) podsReady = condition;
        }
        assertThat(podsReady.path("reason").asText()).isEqualTo("Started");
        assertThat(podsReady.path("message").asText()).isEqualTo("All pods reached readiness and the workload is running");
        assertThat(ManagerHttp.condition(workload, "Admitted")).isEqualTo("True");
        assertThat(workload.path("status").path("dispatch").path("podsReady").asInt()).isEqualTo(2);
        assertThat(api.send("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/ready", null, null).statusCode()).isEqualTo(200);
    }
}
