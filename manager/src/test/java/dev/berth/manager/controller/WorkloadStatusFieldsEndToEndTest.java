package dev.berth.manager.controller;

import static dev.berth.manager.testing.KueueObjects.clusterQueue;
import static dev.berth.manager.testing.KueueObjects.job;
import static dev.berth.manager.testing.KueueObjects.localQueue;
import static dev.berth.manager.testing.KueueObjects.resourceFlavor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Over the real API: a status field another controller wrote to a Workload (Kueue v1beta2's
 * nominatedClusterNames, which an External dispatcher sets) is still there after the admission
 * controller wrote the workload's status again (admitting it), as it is in Kueue, where each
 * controller applies only its own status fields.
 */
class WorkloadStatusFieldsEndToEndTest {
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void aNominationWrittenThroughTheApiSurvivesTheWorkloadsAdmission() {
        ManagerClient client = harness.client();
        client.create(resourceFlavor("sw-flavor"));
        client.create(localQueue("team-a", "sw-lq").clusterQueue("sw-cq"));
        client.create(job("team-a", "sw-train").queue("sw-lq").request("cpu", "1"));
        JsonNode pending = await().atMost(Duration.ofSeconds(20)).until(() -> onlyWorkload(client),
                w -> w != null && "False".equals(ManagerClient.condition(w, "QuotaReserved")));
        String status = ManagerClient.KUEUE + "/namespaces/team-a/workloads/" + pending.path("metadata").path("name").asText() + "/status";

        client.mergePatch(status, "{\"status\":{\"nominatedClusterNames\":[\"east\",\"west\"]}}");
        client.create(clusterQueue("sw-cq").quota("sw-flavor", "cpu", "4"));

        JsonNode admitted = await().atMost(Duration.ofSeconds(20)).until(() -> onlyWorkload(client),
                w -> w != null && "True".equals(ManagerClient.condition(w, "Admitted")));
        assertThat(admitted.path("status").path("admission").path("clusterQueue").asText()).isEqualTo("sw-cq");
        assertThat(admitted.path("status").path("nominatedClusterNames")).extracting(JsonNode::asText).containsExactly("east", "west");
    }

    private static JsonNode onlyWorkload(ManagerClient client) {
        List<JsonNode> workloads = client.items(ManagerClient.KUEUE + "/namespaces/team-a/workloads").stream()
                .filter(w -> w.path("metadata").path("name").asText().contains("sw-train")).toList();
        return workloads.size() == 1 ? workloads.get(0) : null;
    }
}
