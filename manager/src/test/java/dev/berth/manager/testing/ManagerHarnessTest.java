package dev.berth.manager.testing;

import static dev.berth.manager.testing.KueueObjects.clusterQueue;
import static dev.berth.manager.testing.KueueObjects.job;
import static dev.berth.manager.testing.KueueObjects.localQueue;
import static dev.berth.manager.testing.KueueObjects.resourceFlavor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shared harness itself: objects built by {@link KueueObjects} are accepted by a manager the
 * {@link ManagerHarness} started (a Job through them is admitted against the quota they declare), the
 * client reports status codes and Status bodies, and a file-store manager keeps its objects over a restart.
 */
class ManagerHarnessTest {
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues().fileStore();

    @Test
    void aJobBuiltByTheFixturesIsAdmittedUnderTheQuotaTheyDeclare() {
        ManagerClient client = harness.client();
        client.create(resourceFlavor("gpu-x").nodeLabel("gpu", "x"));
        client.create(clusterQueue("cq-x").cohort("pool").quota("gpu-x", "nvidia.com/gpu", 8).quota("gpu-x", "cpu", "16")
                .borrowingLimit("gpu-x", "nvidia.com/gpu", "0"));
        client.create(localQueue("team-a", "lq-x").clusterQueue("cq-x"));
        client.create(job("team-a", "train").queue("lq-x").parallelism(2).request("nvidia.com/gpu", 3).request("cpu", "1"));

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> onlyWorkload(client, "team-a"),
                w -> "True".equals(ManagerClient.condition(w, "Admitted")));

        assertThat(workload.path("status").path("admission").path("clusterQueue").asText()).isEqualTo("cq-x");
        JsonNode queue = client.get(ManagerClient.KUEUE + "/clusterqueues/cq-x");
        assertThat(queue.path("spec").path("cohortName").asText()).isEqualTo("pool");
        assertThat(queue.path("status").path("flavorsReservation").get(0).path("resources").findValuesAsText("total"))
                .as("two pods of 3 GPUs and 1 CPU each").containsExactly("6", "2");
    }

    @Test
    void theClientReportsRefusalsAndAbsenceByStatusCode() {
        ManagerClient client = harness.client();
        assertThat(client.get(ManagerClient.KUEUE + "/clusterqueues/none")).isNull();
        assertThat(client.delete(ManagerClient.KUEUE + "/clusterqueues/none")).isEqualTo(404);

        HttpResponse<String> refused = client.send("POST", KueueObjects.localQueue("team-a", "x").collectionPath(),
                ManagerClient.JSON_TYPE, localQueue("team-a", "Not_A_Name").clusterQueue("cq").toJson());

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(ManagerClient.json(refused).path("message").asText()).contains("metadata.name");
        assertThat(client.items(ManagerClient.KUEUE + "/namespaces/team-a/localqueues"))
                .extracting(q -> q.path("metadata").path("name").asText()).containsExactly("team-a-queue");
    }

    @Test
    void aFileStoreManagerKeepsItsObjectsOverARestart() {
        harness.client().create(resourceFlavor("kept"));
        harness.restart();
        assertThat(harness.client().get(ManagerClient.KUEUE + "/resourceflavors/kept")).isNotNull();
        assertThat(harness.client().mergePatch(ManagerClient.KUEUE + "/resourceflavors/kept", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")
                .path("metadata").path("labels").path("a").asText()).isEqualTo("b");
    }

    private static JsonNode onlyWorkload(ManagerClient client, String namespace) {
        List<JsonNode> workloads = client.items(ManagerClient.KUEUE + "/namespaces/" + namespace + "/workloads");
        return workloads.size() == 1 ? workloads.get(0) : null;
    }
}
