package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two-phase dispatch end to end: a MultiKueueConfig with the AllAtOnce strategy over two virtual A100
 * clusters that both have room, each with a real agent. Both agents reserve the copy; the manager commits
 * one and withdraws the other. A watch on each cluster records every Job ever created there: exactly one
 * cluster ever gets one. (Before two-phase dispatch both agents created the Job, and the loser's was
 * deleted only at the next listing.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoPhaseDispatchSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String A100 = "NVIDIA-A100-SXM4-40GB";
    private static final List<String> CLUSTERS = List.of("a100-ondemand", "a100-spot");
    private static final String ALL_AT_ONCE = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: AdmissionCheck
            metadata:
              name: multikueue
            spec:
              controllerName: kueue.x-k8s.io/multikueue
              parameters:
                apiGroup: kueue.x-k8s.io
                kind: MultiKueueConfig
                name: gpu-clusters
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: MultiKueueConfig
            metadata:
              name: gpu-clusters
              annotations:
                berth.dev/dispatch-strategy: AllAtOnce
            spec:
              clusters:
              - a100-ondemand
              - a100-spot
            """;

    private BerthSystem system;
    private ManagerHttp api;
    /** Per cluster, the names of every Job the watch saw created there. */
    private final Map<String, Set<String>> jobsEverCreated = new ConcurrentHashMap<>();
    private final List<Watch> watches = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-two-phase");
        Path multiKueue = Files.createDirectories(dir.resolve("multikueue"));
        Files.writeString(multiKueue.resolve("multikueue.yaml"), ALL_AT_ONCE);
        system = BerthSystem.start(dir, List.of(
                        new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
                        new WorkerClusterSpec("a100-spot", "a100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), multiKueue));
        api = new ManagerHttp(system.apiUrl());
        for (String cluster : CLUSTERS) {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            jobsEverCreated.put(cluster, seen);
            watches.add(system.worker(cluster).client().batch().v1().jobs().inAnyNamespace().watch(new Watcher<Job>() {
                @Override
                public void eventReceived(Action action, Job job) {
                    seen.add(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName());
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            }));
        }
        await().atMost(PATIENCE).until(this::allConnected);
    }

    private boolean allConnected() {
        JsonNode clusters = api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters").path("items");
        if (clusters.size() != 2) return false;
        for (JsonNode cluster : clusters) {
            if (!"True".equals(cluster.path("status").path("conditions").path(0).path("status").asText())) return false;
        }
        return true;
    }

    @AfterAll
    void stop() {
        watches.forEach(Watch::close);
        if (system != null) system.close();
    }

    @Test
    void allAtOnceOverTwoClustersThatBothFitStartsExactlyOneCopy() {
        String yaml = Jobs.job("team-a", "only-once", "team-a-queue", 2, 1, 2, "PT3S", A100);
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml", yaml).statusCode()).isEqualTo(201);

        JsonNode finished = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "only-once"),
                w -> w != null && "True".equals(condition(w, "Finished")));

        String winner = finished.path("status").path("clusterName").asText();
        assertThat(winner).isIn(CLUSTERS);
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        String loser = CLUSTERS.stream().filter(c -> !c.equals(winner)).findFirst().orElseThrow();
        assertThat(jobsEverCreated.get(winner)).contains("team-a/only-once");
        assertThat(jobsEverCreated.get(loser)).as("the withdrawn reservation on %s never created its Job", loser).isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(remoteAttempts(loser)).as("the loser's copy is withdrawn").isEmpty());
    }

    private List<RemoteWorkload> remoteAttempts(String cluster) {
        return system.worker(cluster).client().resources(RemoteWorkload.class).inAnyNamespace().list().getItems();
    }
}
