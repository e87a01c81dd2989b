package dev.berth.manager.controller;

import static dev.berth.manager.testing.KueueObjects.clusterQueue;
import static dev.berth.manager.testing.KueueObjects.job;
import static dev.berth.manager.testing.KueueObjects.localQueue;
import static dev.berth.manager.testing.KueueObjects.namespace;
import static dev.berth.manager.testing.KueueObjects.resourceFlavor;
import static dev.berth.manager.testing.ManagerClient.condition;
import static dev.berth.manager.testing.MultiKueueObjects.multiKueueCheck;
import static dev.berth.manager.testing.MultiKueueObjects.multiKueueConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.protocol.crd.RemoteWorkload;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A new leader takes office over a store whose workloads finished under the previous one: it recovers no
 * attempt for them, so it neither deletes their (already deleted) remote copies again nor clears their
 * status.dispatch. Before, each finished workload cost a delete call and a store write at every takeover
 * (drill 5: 36-48 of them right before the new leader's first scheduling).
 */
class FinishedWorkloadTakeoverTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final DispatchOptions OPTIONS =
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(OPTIONS);
    private MockWorkerCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MockWorkerCluster.start("roomy").heartbeat(8);
        ManagerClient client = harness.client();
        client.create(namespace("team-a"));
        client.create(resourceFlavor("a100"));
        client.create(multiKueueConfig("workers", "roomy"));
        client.create(multiKueueCheck("dispatch", "workers"));
        client.create(clusterQueue("cq").admissionCheck("dispatch").quota("a100", "cpu", 64).quota("a100", "nvidia.com/gpu", 64));
        client.create(localQueue("team-a", "lq").clusterQueue("cq"));
        cluster.connect(client);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aFinishedWorkloadKeepsItsDispatchRecordAcrossATakeover() throws Exception {
        submitJob();
        RemoteWorkload remote = await().atMost(WAIT).until(this::attempt, r -> r != null);
        cluster.reportSucceeded(remote, 1);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
        await().atMost(WAIT).until(() -> attempt() == null); // the manager deleted the finished copy
        String attemptId = workload().path("status").path("dispatch").path("attemptId").asText();
        assertThat(attemptId).isEqualTo(remote.getSpec().getAttemptId());
        harness.stopManager();

        harness.restart();
        await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/roomy"), "Active")));

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> attemptId.equals(workload().path("status").path("dispatch").path("attemptId").asText()));
    }

    private RemoteWorkload attempt() {
        return cluster.attempt();
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob() {
        harness.client().create(job("team-a", "train").queue("lq").request("cpu", "1").request("nvidia.com/gpu", "1"));
    }

    private JsonNode workload() throws Exception {
        JsonNode list = get(KUEUE + "/namespaces/team-a/workloads");
        return list.path("items").size() == 0 ? null : list.path("items").get(0);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return harness.client().send(method, path, ManagerClient.JSON_TYPE, body);
    }
}
