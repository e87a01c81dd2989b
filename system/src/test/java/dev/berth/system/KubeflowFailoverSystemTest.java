package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.DispatchConfig;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.virtualcluster.AttemptOverlaps;
import dev.berth.virtualcluster.PodInterval;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A multi-replica training job on a cluster that is killed (issue 17): the PyTorchJob is evicted with
 * ClusterLost, redispatched under a new attempt to the other cluster, where its master and workers run
 * again and it finishes; the clusters' own pod records show no two attempts' pods alive at once.
 * Drill settings as FailoverSystemTest's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubeflowFailoverSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Set<String> CLUSTERS = Set.of("a100-ondemand", "a100-spot");

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-kubeflow-failover-test");
        system = BerthSystem.start(dir, List.of(
                        new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
                        new WorkerClusterSpec("a100-spot", "a100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS,
                DispatchConfig.parse(Map.ofEntries(Map.entry("worker-lost-timeout", "20s"), Map.entry("lease-duration", "9s"),
                        Map.entry("lease-margin", "1s"), Map.entry("agent-lost-after", "4s"), Map.entry("heartbeat-late-after", "2s"),
                        Map.entry("contact-grace", "4s"), Map.entry("call-timeout", "2s"), Map.entry("retry-attempts", "2"),
                        Map.entry("retry-backoff", "100ms"), Map.entry("breaker-open-for", "2s"), Map.entry("heartbeat-stale-after", "4s"),
                        Map.entry("poll-interval", "500ms"))),
                "127.0.0.1", 0, List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        for (String cluster : CLUSTERS) {
            await().atMost(PATIENCE).until(() -> "True".equals(api.get(KUEUE + "/multikueueclusters/" + cluster)
                    .path("status").path("conditions").path(0).path("status").asText()));
        }
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void aPyTorchJobOnAKilledClusterIsRedispatchedUnderANewAttemptAndNeverRunsTwice() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "jobs", "pytorchjob.yaml"))
                .replace("name: pytorch-mnist", "name: survivor").replace("berth.dev/sim-runtime: \"3\"", "berth.dev/sim-runtime: \"8\"");
        assertThat(api.send("POST", "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs", "application/yaml", yaml).statusCode())
                .isEqualTo(201);
        JsonNode running = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "survivor"),
                w -> w != null && "Running".equals(w.path("status").path("dispatch").path("phase").asText()));
        String from = running.path("status").path("clusterName").asText();
        String firstAttempt = running.path("status").path("dispatch").path("attemptId").asText();
        String to = CLUSTERS.stream().filter(c -> !c.equals(from)).findFirst().orElseThrow();
        await().atMost(PATIENCE).until(() -> podsOf(from).stream().filter(p -> !p.ended()).count() == 3);

        long killedAt = System.currentTimeMillis();
        system.worker(from).cluster().kill();

        JsonNode evicted = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "survivor"),
                w -> w.path("status").path("dispatchHistory").path(0).path("outcome").asText().equals("ClusterLost"));
        assertThat(evicted.path("status").path("dispatchHistory").get(0).path("attemptId").asText()).isEqualTo(firstAttempt);
        JsonNode done = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "survivor"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(done.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        assertThat(done.path("status").path("clusterName").asText()).isEqualTo(to);
        String secondAttempt = done.path("status").path("dispatch").path("attemptId").asText();
        assertThat(secondAttempt).isNotEqualTo(firstAttempt);
        assertThat(podsOf(to)).filteredOn(p -> secondAttempt.equals(p.attemptId())).extracting(PodInterval::pod)
                .containsExactlyInAnyOrder("survivor-master-0", "survivor-worker-0", "survivor-worker-1");
        assertThat(api.get("/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs/survivor")
                .path("status").path("replicaStatuses").path("Master").path("succeeded").asInt()).isEqualTo(1);

        List<PodInterval> intervals = new ArrayList<>();
        for (PodInterval pod : podsOf(from)) {
            intervals.add(pod.ended() ? pod : new PodInterval(pod.cluster(), pod.namespace(), pod.pod(), pod.uid(), pod.node(),
                    pod.labels(), pod.startMillis(), killedAt, "Killed"));
        }
        intervals.addAll(podsOf(to));
        AttemptOverlaps.assertNone(intervals);
    }

    private List<PodInterval> podsOf(String cluster) {
        return system.worker(cluster).cluster().podLifetimes().stream()
                .filter(p -> "survivor".equals(p.labels().get(KubeflowJobKind.JOB_NAME_LABEL))).toList();
    }
}
