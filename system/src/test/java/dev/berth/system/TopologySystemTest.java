package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.virtualcluster.PodInterval;
import dev.berth.virtualcluster.PoolTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Topology Aware Scheduling end to end (issue 18): the manager (Topology, flavor h100-tas from
 * examples/topology) places a gang on a cluster and a block or rack from the agents' per-node
 * reports, the real agent assigns the pods to nodes inside that domain, and the virtual cluster's
 * scheduler binds them there. The h100 cluster has 2 blocks x 2 racks x 2 nodes of 8 GPUs (a rack
 * holds 16 GPUs, a block 32); the a100 cluster has no H100 nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TopologySystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String H100 = "h100";
    private static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-topology-test");
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec(H100, "h100:2b2r2x8,cpu:1", false),
                        new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:1", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue"), Path.of("..", "examples", "topology")));
        api = new ManagerHttp(system.apiUrl());
        for (String cluster : List.of(H100, "a100-ondemand")) {
            await().atMost(PATIENCE).until(() -> "True".equals(api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/" + cluster)
                    .path("status").path("conditions").path(0).path("status").asText()));
        }
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    private static String gang(String name, int pods, int gpus, String annotation, String level, int seconds) {
        return """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%1$s","namespace":"team-a",
                 "labels":{"kueue.x-k8s.io/queue-name":"team-a-tas"}},
                 "spec":{"parallelism":%2$d,"completions":%2$d,"suspend":true,"template":{
                  "metadata":{"annotations":{"%4$s":"%5$s","berth.dev/sim-runtime":"%6$d"}},
                  "spec":{"restartPolicy":"Never","containers":[{"name":"train","image":"busybox",
                   "resources":{"requests":{"cpu":"1","memory":"1Gi","nvidia.com/gpu":"%3$d"},"limits":{"nvidia.com/gpu":"%3$d"}}}]}}}}
                """.formatted(name, pods, gpus, annotation, level, seconds);
    }

    private void submit(String json) {
        assertThat(api.send("POST", JOBS, "application/json", json).statusCode()).isEqualTo(201);
    }

    private List<PodInterval> podsOf(String job) {
        return system.worker(H100).cluster().podLifetimes().stream().filter(p -> p.pod().startsWith(job + "-")).toList();
    }

    private String nodeLabel(String node, String label) {
        return system.worker(H100).client().nodes().withName(node).get().getMetadata().getLabels().get(label);
    }

    private Set<String> domainsOf(List<PodInterval> pods, String label) {
        return pods.stream().map(p -> nodeLabel(p.node(), label)).collect(Collectors.toSet());
    }

    private void finishAndForget(String job) {
        await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", job), w -> w != null && "True".equals(condition(w, "Finished")));
        api.send("DELETE", JOBS + "/" + job, null, null);
        await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", job) == null);
    }

    @Test
    void aRequiredRackGangLandsOnASingleRack() {
        submit(gang("rack-gang", 4, 4, "kueue.x-k8s.io/podset-required-topology", PoolTopology.RACK_LABEL, 3));

        List<PodInterval> pods = await().atMost(PATIENCE).until(() -> podsOf("rack-gang"), p -> p.size() == 4 && p.stream().allMatch(i -> i.node() != null));

        assertThat(domainsOf(pods, PoolTopology.RACK_LABEL)).as("every pod's node in one rack").hasSize(1);
        JsonNode workload = api.workloadOfJob("team-a", "rack-gang");
        assertThat(workload.path("status").path("clusterName").asText(H100)).isEqualTo(H100);
        // the Workload shows where the agent put the pods, in Kueue's v1beta2 topologyAssignment
        JsonNode assignment = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "rack-gang").path("status")
                .path("admission").path("podSetAssignments").path(0).path("topologyAssignment"), JsonNode::isObject);
        assertThat(assignment.path("levels").toString()).isEqualTo("[\"kubernetes.io/hostname\"]");
        JsonNode hostnames = assignment.path("slices").path(0).path("valuesPerLevel").path(0);
        Set<String> assigned = hostnames.has("universal") ? Set.of(hostnames.path("universal").asText())
                : java.util.stream.StreamSupport.stream(hostnames.path("individual").path("roots").spliterator(), false)
                .map(JsonNode::asText).collect(Collectors.toSet());
        assertThat(assigned).as(assignment.toString()).isEqualTo(pods.stream().map(PodInterval::node).collect(Collectors.toSet()));
        finishAndForget("rack-gang");
    }

    @Test
    void aRequiredBlockGangNoClusterHoldsWaitsAndExplainNamesTheBestBlock() {
        submit(gang("block-gang", 10, 4, "kueue.x-k8s.io/podset-required-topology", PoolTopology.BLOCK_LABEL, 3));

        JsonNode workload = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "block-gang"),
                w -> w != null && String.valueOf(ManagerHttp.checkMessage(w)).contains("no block in any cluster"));
        assertThat(ManagerHttp.checkMessage(workload)).contains("no block in any cluster has 40 nvidia.com/gpu free in flavor h100-tas",
                "best: cluster h100 block-");
        String name = workload.path("metadata").path("name").asText();
        JsonNode explain = api.get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads/" + name + "/explain");
        assertThat(explain.path("answer").asText()).contains("no block in any cluster has 40 nvidia.com/gpu free", "with 32 (room for 8 pods)");
        assertThat(podsOf("block-gang")).as("nothing started anywhere").isEmpty();

        api.send("DELETE", JOBS + "/block-gang", null, null);
        await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "block-gang") == null);
    }

    @Test
    void aPreferredRackGangSpreadsOnlyWhenItMust() {
        submit(gang("fits-a-rack", 4, 4, "kueue.x-k8s.io/podset-preferred-topology", PoolTopology.RACK_LABEL, 2));
        List<PodInterval> compact = await().atMost(PATIENCE).until(() -> podsOf("fits-a-rack"),
                p -> p.size() == 4 && p.stream().allMatch(i -> i.node() != null));
        assertThat(domainsOf(compact, PoolTopology.RACK_LABEL)).as("fits one rack: stays in one rack").hasSize(1);
        finishAndForget("fits-a-rack");

        submit(gang("needs-a-block", 6, 4, "kueue.x-k8s.io/podset-preferred-topology", PoolTopology.RACK_LABEL, 2));
        List<PodInterval> spread = await().atMost(PATIENCE).until(() -> podsOf("needs-a-block"),
                p -> p.size() == 6 && p.stream().allMatch(i -> i.node() != null));
        assertThat(domainsOf(spread, PoolTopology.BLOCK_LABEL)).as("24 GPUs fit no rack but a block: one block").hasSize(1);
        assertThat(domainsOf(spread, PoolTopology.RACK_LABEL)).as("and only as many racks as it must").hasSize(2);
        finishAndForget("needs-a-block");
    }
}
