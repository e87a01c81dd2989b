package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.DispatchConfig;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.virtualcluster.AttemptOverlaps;
import dev.berth.virtualcluster.PodInterval;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Failover end to end with drill settings (workerLostTimeout 20s, lease 9s renewed every 3 s,
 * a renewal's retries within 4.1 s, agent lost after 4s):
 * two A100 virtual clusters in their own processes with their agents, and the manager over HTTP.
 * Invariant throughout: a workload finishes exactly once and no two of its attempts ever ran pods at
 * the same time, judged from the clusters' own pod-lifetime records. The cluster kill runs last.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String A100 = "NVIDIA-A100-SXM4-40GB";
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Set<String> CLUSTERS = Set.of("a100-ondemand", "a100-spot");

    private BerthSystem system;
    private ManagerHttp api;
    private Long killedAtMillis;
    private String killed;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-failover-test");
        system = BerthSystem.start(dir, List.of(
                        new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
                        new WorkerClusterSpec("a100-spot", "a100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS,
                // drill settings with room for a machine shared by many builds: calls may take seconds here
                DispatchConfig.parse(Map.ofEntries(Map.entry("worker-lost-timeout", "20s"), Map.entry("lease-duration", "9s"),
                        Map.entry("lease-margin", "1s"), Map.entry("agent-lost-after", "4s"), Map.entry("heartbeat-late-after", "2s"),
                        Map.entry("contact-grace", "4s"), Map.entry("call-timeout", "2s"), Map.entry("retry-attempts", "2"),
                        Map.entry("retry-backoff", "100ms"), Map.entry("breaker-open-for", "2s"), Map.entry("heartbeat-stale-after", "4s"),
                        Map.entry("poll-interval", "500ms"))),
                "127.0.0.1", 0, List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        for (String cluster : CLUSTERS) await().atMost(PATIENCE).until(() -> "Healthy".equals(healthReason(cluster)));
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    @Order(1)
    void aBriefAgentOutageEvictsNothing() {
        submit("blip", "PT25S");
        JsonNode running = running("blip");
        String cluster = running.path("status").path("clusterName").asText();
        String attempt = running.path("status").path("dispatch").path("attemptId").asText();
        // a create that timed out under load before the workload ran is an attempt too: count from here
        int attemptsBefore = running.path("status").path("dispatchHistory").size();

        system.stopAgent(cluster);
        await().atMost(PATIENCE).until(() -> !"Healthy".equals(healthReason(cluster)));
        system.restartAgent(cluster);
        await().atMost(PATIENCE).until(() -> "Healthy".equals(healthReason(cluster)));

        JsonNode after = api.workloadOfJob("team-a", "blip");
        assertThat(condition(after, "Evicted")).isNotEqualTo("True");
        assertThat(after.path("status").path("dispatch").path("attemptId").asText()).isEqualTo(attempt);
        assertThat(after.path("status").path("dispatchHistory")).as("no new attempt since the outage").hasSize(attemptsBefore);
        deleteJob("blip");
    }

    @Test
    @Order(2)
    void aCordonedClusterGetsNoNewWork() {
        annotate("a100-ondemand", "berth.dev/cordon", "true");
        await().atMost(PATIENCE).until(() -> "True".equals(clusterCondition("a100-ondemand", "berth.dev/Cordoned")));
        for (int i = 0; i < 3; i++) submit("cordoned-" + i, "PT1S");
        for (int i = 0; i < 3; i++) {
            assertThat(finished("cordoned-" + i).path("status").path("clusterName").asText()).isEqualTo("a100-spot");
        }
        assertThat(clusterEvent("a100-ondemand", "Cordoned")).isEqualTo("Normal");
        // the gauge and the clusters view tell the same story as the conditions
        assertThat(metric("berth_cluster_health{cluster=\"a100-ondemand\",state=\"cordoned\"}")).isEqualTo(1.0);
        await().atMost(PATIENCE).until(() -> {
            String health = healthReason("a100-spot");
            JsonNode row = clustersViewRow("a100-spot");
            String state = health.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
            return Double.valueOf(1.0).equals(metric("berth_cluster_health{cluster=\"a100-spot\",state=\"" + state + "\"}"))
                    && health.equals(row.path("health").asText()) && "Closed".equals(row.path("breaker").asText());
        });
        annotate("a100-ondemand", "berth.dev/cordon", "false");
        await().atMost(PATIENCE).until(() -> "False".equals(clusterCondition("a100-ondemand", "berth.dev/Cordoned")));
        await().atMost(PATIENCE).until(() -> clusterEvent("a100-ondemand", "Uncordoned") != null);
    }

    @Test
    @Order(3)
    void drainingAClusterMovesItsWorkloadsElsewhere() {
        submit("drained", "PT6S");
        JsonNode running = running("drained");
        String from = running.path("status").path("clusterName").asText();
        String to = other(from);

        annotate(from, "berth.dev/drain", "true");
        JsonNode done = finished("drained");
        assertThat(done.path("status").path("clusterName").asText()).isEqualTo(to);
        JsonNode history = done.path("status").path("dispatchHistory");
        assertThat(history).hasSize(2);
        assertThat(history.get(0).path("cluster").asText()).isEqualTo(from);
        assertThat(history.get(0).path("outcome").asText()).isEqualTo("Stopped");
        assertThat(history.get(1).path("attemptId").asText()).isNotEqualTo(history.get(0).path("attemptId").asText());
        assertNoOverlaps();
        assertThat(clusterEvent(from, "Draining")).isEqualTo("Normal");
        assertThat(metric("berth_failovers_total{cluster_queue=\"team-a-cq\",from_cluster=\"" + from + "\"}")).isGreaterThanOrEqualTo(1.0);

        annotate(from, "berth.dev/drain", "false");
        await().atMost(PATIENCE).until(() -> "False".equals(clusterCondition(from, "berth.dev/Cordoned")));
    }

    @Test
    @Order(4)
    void aLostAgentsWorkloadsMoveAndItsStaleAttemptIsDeletedWhenItReturns() {
        submit("agent-lost", "PT4S");
        JsonNode running = running("agent-lost");
        String from = running.path("status").path("clusterName").asText();
        String firstAttempt = running.path("status").path("dispatch").path("attemptId").asText();

        system.stopAgent(from);
        JsonNode done = finished("agent-lost");
        assertThat(done.path("status").path("clusterName").asText()).isEqualTo(other(from));
        JsonNode lost = done.path("status").path("dispatchHistory").get(0);
        assertThat(lost.path("attemptId").asText()).isEqualTo(firstAttempt);
        assertThat(lost.path("outcome").asText()).isEqualTo("ClusterLost");
        assertThat(lost.path("reason").asText()).contains("worker cluster " + from + " lost (AgentLost", "since");
        assertThat(done.path("status").path("dispatch").path("attemptId").asText()).isNotEqualTo(firstAttempt);
        assertThat(clusterEvent(from, "ClusterLost")).isEqualTo("Warning");

        system.restartAgent(from);
        await().atMost(PATIENCE).until(() -> remoteAttempts(from, "agent-lost").isEmpty());
        JsonNode after = api.workloadOfJob("team-a", "agent-lost");
        assertThat(after.path("status").path("clusterName").asText()).isEqualTo(other(from));
        assertThat(after.path("status").path("dispatch").path("attemptId").asText()).isNotEqualTo(firstAttempt);
        assertNoOverlaps();
    }

    @Test
    @Order(5)
    void aDeadAgentsRunningPodsAreStoppedBeforeTheWorkloadStartsElsewhere() {
        for (String cluster : CLUSTERS) await().atMost(PATIENCE).until(() -> "Healthy".equals(healthReason(cluster)));
        submit("agent-dead-long", "PT300S");
        JsonNode running = running("agent-dead-long");
        String from = running.path("status").path("clusterName").asText();
        String firstAttempt = running.path("status").path("dispatch").path("attemptId").asText();
        await().atMost(PATIENCE).until(() -> !podsOf(from, firstAttempt).isEmpty());

        system.stopAgent(from);
        JsonNode moved = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "agent-dead-long"),
                w -> other(from).equals(w.path("status").path("clusterName").asText())
                        && "Running".equals(w.path("status").path("dispatch").path("phase").asText()));
        String secondAttempt = moved.path("status").path("dispatch").path("attemptId").asText();
        assertThat(secondAttempt).isNotEqualTo(firstAttempt);
        assertThat(moved.path("status").path("dispatchHistory").get(0).path("outcome").asText()).isEqualTo("ClusterLost");

        assertThat(system.worker(from).client().pods().inNamespace("team-a").withLabel(Labels.ATTEMPT_ID, firstAttempt).list().getItems())
                .as("the old attempt's pods are deleted in the cluster whose agent is dead").isEmpty();
        PodInterval old = podsOf(from, firstAttempt).get(0);
        assertThat(old.ended()).as("the old pod was stopped, not left running to its end").isTrue();
        assertThat(old.endPhase()).isEqualTo("Deleted");
        await().atMost(PATIENCE).until(() -> !podsOf(other(from), secondAttempt).isEmpty());
        assertThat(podsOf(other(from), secondAttempt)).allSatisfy(started -> assertThat(started.startMillis())
                .as("the new attempt's pod starts after the old one ended").isGreaterThanOrEqualTo(old.endMillis()));
        assertThat(clusterEvent(from, "OldPodsRunning")).isEqualTo("Normal");
        assertThat(clusterEvent(from, "OldPodsStopped")).isEqualTo("Normal");
        assertNoOverlaps();

        deleteJob("agent-dead-long");
        system.restartAgent(from);
        await().atMost(PATIENCE).until(() -> "Healthy".equals(healthReason(from)));
    }

    @Test
    @Order(6)
    void aKilledClustersWorkloadsAreEvictedRequeuedAndFinishElsewhere() {
        submit("cluster-lost", "PT5S");
        JsonNode running = running("cluster-lost");
        String from = running.path("status").path("clusterName").asText();
        String firstAttempt = running.path("status").path("dispatch").path("attemptId").asText();

        killed = from;
        killedAtMillis = System.currentTimeMillis();
        system.worker(from).cluster().kill();
        JsonNode evicted = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "cluster-lost"),
                w -> w.path("status").path("dispatchHistory").path(0).path("outcome").asText().equals("ClusterLost"));
        assertThat(evicted.path("status").path("dispatchHistory").get(0).path("reason").asText())
                .contains("worker cluster " + from + " lost (Unreachable", "since");
        assertThat(healthReason(from)).isEqualTo("Unreachable");

        JsonNode done = finished("cluster-lost");
        assertThat(condition(done, "Finished")).isEqualTo("True");
        assertThat(done.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        assertThat(done.path("status").path("clusterName").asText()).isEqualTo(other(from));
        assertThat(done.path("status").path("dispatch").path("attemptId").asText()).isNotEqualTo(firstAttempt);
        JsonNode queue = api.get(KUEUE + "/clusterqueues/team-a-cq");
        if (queue != null) assertThat(queue.path("status").path("reservingWorkloads").asInt()).isZero();
        assertNoOverlaps();
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The type of the newest core/v1 Event with this reason about the MultiKueueCluster (cluster-scoped: namespace default). */
    private String clusterEvent(String cluster, String reason) {
        JsonNode events = api.get("/api/v1/namespaces/default/events");
        String type = null;
        if (events == null) return null;
        for (JsonNode event : events.path("items")) {
            JsonNode involved = event.path("involvedObject");
            if (involved.path("kind").asText().equals("MultiKueueCluster") && involved.path("name").asText().equals(cluster)
                    && event.path("reason").asText().equals(reason)) type = event.path("type").asText();
        }
        return type;
    }

    private Double metric(String series) {
        String body = api.send("GET", "/metrics", null, null).body();
        for (String line : body.split("\n")) {
            if (line.startsWith(series + " ")) return Double.parseDouble(line.substring(series.length() + 1).trim());
        }
        return null;
    }

    private JsonNode clustersViewRow(String cluster) {
        for (JsonNode row : api.get("/apis/visibility.berth.dev/v1alpha1/clusters").path("items")) {
            if (row.path("name").asText().equals(cluster)) return row;
        }
        throw new AssertionError("no row for " + cluster + " in the clusters view");
    }

    private void submit(String name, String runtime) {
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml",
                Jobs.job("team-a", name, "team-a-queue", 1, 1, 2, runtime, A100)).statusCode()).isEqualTo(201);
    }

    private JsonNode running(String job) {
        return await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", job),
                w -> w != null && "Running".equals(w.path("status").path("dispatch").path("phase").asText()));
    }

    private JsonNode finished(String job) {
        return await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", job), w -> "True".equals(condition(w, "Finished")));
    }

    private void deleteJob(String job) {
        assertThat(api.send("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/" + job, null, null).statusCode()).isEqualTo(200);
    }

    private static String other(String cluster) {
        return CLUSTERS.stream().filter(c -> !c.equals(cluster)).findFirst().orElseThrow();
    }

    private void annotate(String cluster, String key, String value) {
        String patch = "{\"metadata\":{\"annotations\":{\"" + key + "\":\"" + value + "\"}}}";
        var response = api.send("PATCH", KUEUE + "/multikueueclusters/" + cluster, "application/merge-patch+json", patch);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    private String clusterCondition(String cluster, String type) {
        return condition(api.get(KUEUE + "/multikueueclusters/" + cluster), type);
    }

    private String healthReason(String cluster) {
        JsonNode object = api.get(KUEUE + "/multikueueclusters/" + cluster);
        if (object == null) return null;
        for (JsonNode c : object.path("status").path("conditions")) {
            if (c.path("type").asText().equals("berth.dev/Healthy")) return c.path("reason").asText();
        }
        return null;
    }

    private List<RemoteWorkload> remoteAttempts(String cluster, String workloadPrefix) {
        return system.worker(cluster).client().resources(RemoteWorkload.class).inNamespace("team-a").list().getItems().stream()
                .filter(r -> r.getSpec().getWorkloadName().contains(workloadPrefix)).collect(Collectors.toList());
    }

    private List<PodInterval> podsOf(String cluster, String attemptId) {
        return system.worker(cluster).cluster().podLifetimes().stream().filter(p -> attemptId.equals(p.attemptId())).toList();
    }

    /** The clusters' own pod records; a killed cluster's pods ended when it was killed (the record has no end for them). */
    private void assertNoOverlaps() {
        List<PodInterval> intervals = new ArrayList<>();
        for (RunningWorker worker : system.workers()) {
            for (PodInterval pod : worker.cluster().podLifetimes()) {
                boolean cutShort = worker.name().equals(killed) && !pod.ended();
                intervals.add(cutShort ? new PodInterval(pod.cluster(), pod.namespace(), pod.pod(), pod.uid(), pod.node(), pod.labels(),
                        pod.startMillis(), killedAtMillis, "Killed") : pod);
            }
        }
        AttemptOverlaps.assertNone(intervals);
    }
}
