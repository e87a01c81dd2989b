package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.crd.RemoteWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A thousand jobs from two teams across three worker clusters: every one finishes, and nothing is left behind anywhere. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThousandJobsSystemTest {
    private static final int JOBS = Integer.getInteger("berth.system.jobs", 1000);
    private static final List<String> CLUSTERS = List.of("a100-ondemand", "h100", "a100-spot");

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        system = BerthSystem.start(Files.createTempDirectory("berth-thousand-jobs"), List.of(
                        // CPU jobs overflow from default-cpu into the GPU flavors' cpu quota, as Kueue assigns them,
                        // so every cluster has nodes of the flavors its jobs may get.
                        new WorkerClusterSpec("a100-ondemand", "a100:1x8,cpu:2", false),
                        new WorkerClusterSpec("h100", "h100:1x8,cpu:2", false),
                        new WorkerClusterSpec("a100-spot", "a100:1x8,cpu:2", true)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void aThousandJobsAllFinishWithNoLeftovers() {
        for (int i = 0; i < JOBS; i++) {
            String team = i % 2 == 0 ? "team-a" : "team-b";
            String yaml = Jobs.job(team, "bulk-" + i, team + "-queue", 1, 1, 0, "PT0.1S", null);
            assertThat(api.send("POST", "/apis/batch/v1/namespaces/" + team + "/jobs", "application/yaml", yaml).statusCode())
                    .as("job %d accepted", i).isEqualTo(201);
        }

        await().atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofSeconds(2)).until(() -> finished() == JOBS);

        Map<String, Integer> byCluster = new HashMap<>();
        for (String team : List.of("team-a", "team-b")) {
            for (JsonNode workload : api.get("/apis/kueue.x-k8s.io/v1beta2/namespaces/" + team + "/workloads").path("items")) {
                assertThat(workload.path("status").path("conditions").toString()).contains("\"Succeeded\"");
                byCluster.merge(workload.path("status").path("clusterName").asText(), 1, Integer::sum);
            }
        }
        assertThat(byCluster.keySet()).containsExactlyInAnyOrderElementsOf(CLUSTERS);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
            for (String cluster : CLUSTERS) {
                var client = system.worker(cluster).client();
                assertThat(client.resources(RemoteWorkload.class).inAnyNamespace().list().getItems()).as("attempts left in " + cluster).isEmpty();
                assertThat(client.batch().v1().jobs().inAnyNamespace().list().getItems()).as("jobs left in " + cluster).isEmpty();
                assertThat(client.pods().inAnyNamespace().list().getItems()).as("pods left in " + cluster).isEmpty();
            }
        });
        JsonNode queue = api.get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq");
        assertThat(queue.path("status").path("reservingWorkloads").asInt()).isZero();
    }

    private int finished() {
        int count = 0;
        int admitted = 0;
        for (String team : List.of("team-a", "team-b")) {
            for (JsonNode workload : api.get("/apis/kueue.x-k8s.io/v1beta2/namespaces/" + team + "/workloads").path("items")) {
                if ("True".equals(ManagerHttp.condition(workload, "Finished"))) count++;
                else if ("True".equals(ManagerHttp.condition(workload, "Admitted"))) admitted++;
            }
        }
        System.out.printf("%tT finished %d, admitted and running %d of %d%n", System.currentTimeMillis(), count, admitted, JOBS);
        return count;
    }
}
