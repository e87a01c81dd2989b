package dev.berth.manager.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DispatchParts;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.dispatch.TopologyAssignment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent's topology assignment on the manager's Workload (issue 18): Kueue's
 * status.admission.podSetAssignments[].topologyAssignment in its v1beta2 form, for the current attempt only.
 */
class TopologyAssignmentJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final TopologyAssignment TWO_NODES = new TopologyAssignment("main", List.of(HOSTNAME),
            List.of(new TopologyAssignment.Domain(List.of("h100-3"), 2), new TopologyAssignment.Domain(List.of("h100-4"), 2)));

    private static ObjectNode admittedStatus() throws Exception {
        return (ObjectNode) JSON.readTree("""
                {"admission":{"clusterQueue":"team-a-tas","podSetAssignments":[
                  {"name":"main","flavors":{"nvidia.com/gpu":"h100-tas"},"resourceUsage":{"nvidia.com/gpu":"16"},"count":4},
                  {"name":"launcher","flavors":{"cpu":"h100-tas"},"resourceUsage":{"cpu":"1"},"count":1}]},
                 "conditions":[{"type":"QuotaReserved","status":"True","reason":"QuotaReserved","message":"m",
                   "lastTransitionTime":"2026-01-01T00:00:00Z"}]}
                """);
    }

    private static DispatchStatus running(List<TopologyAssignment> assignments) {
        return new DispatchStatus("h100", "a-1", "Running", new DispatchStatus.PodCounts(4, 0, 0), null, null, List.of(), assignments);
    }

    @Test
    void theReportedAssignmentIsOnItsPodSetInKueuesV1beta2Shape() throws Exception {
        ObjectNode status = WorkloadStatusJson.withDispatch(admittedStatus(), DispatchParts.NONE,
                DispatchParts.NONE.withDispatch(running(List.of(TWO_NODES)), "h100"));

        JsonNode main = status.path("admission").path("podSetAssignments").path(0);
        assertThat(main.path("topologyAssignment")).isEqualTo(JSON.readTree("""
                {"levels":["kubernetes.io/hostname"],"slices":[{"domainCount":2,
                  "valuesPerLevel":[{"individual":{"roots":["h100-3","h100-4"]}}],"podCounts":{"universal":2}}]}
                """));
        assertThat(status.path("admission").path("podSetAssignments").path(1).has("topologyAssignment"))
                .as("a pod set without a topology request has none").isFalse();
        assertThat(WorkloadStatusJson.dispatchPartsOf(status).dispatch().topologyAssignments()).containsExactly(TWO_NODES);
    }

    @Test
    void oneDomainWithUnevenCountsAcrossLevels() {
        TopologyAssignment rack = new TopologyAssignment("main", List.of("block", "rack"),
                List.of(new TopologyAssignment.Domain(List.of("b1", "r1"), 3), new TopologyAssignment.Domain(List.of("b1", "r2"), 1)));
        JsonNode slice = TopologyAssignmentJson.kueueV1beta2(rack).path("slices").path(0);
        assertThat(slice.path("valuesPerLevel").path(0).path("universal").asText()).isEqualTo("b1");
        assertThat(slice.path("valuesPerLevel").path(1).path("individual").path("roots").toString()).isEqualTo("[\"r1\",\"r2\"]");
        assertThat(slice.path("podCounts").path("individual").toString()).isEqualTo("[3,1]");
    }

    @Test
    void theAdmissionControllersWriteKeepsItAndANewAttemptWithoutOneClearsIt() throws Exception {
        ObjectNode placed = WorkloadStatusJson.withDispatch(admittedStatus(), DispatchParts.NONE,
                DispatchParts.NONE.withDispatch(running(List.of(TWO_NODES)), "h100"));

        ObjectNode rewritten = WorkloadStatusJson.withAdmission(placed, StatusJson.parseWorkloadStatus(admittedStatus()), JSON.createObjectNode());
        assertThat(rewritten.path("admission").path("podSetAssignments").path(0).path("topologyAssignment").path("slices").path(0)
                .path("domainCount").asInt()).isEqualTo(2);

        DispatchParts before = WorkloadStatusJson.dispatchPartsOf(rewritten);
        ObjectNode redispatched = WorkloadStatusJson.withDispatch(rewritten, before,
                before.withDispatch(DispatchStatus.dispatched("a100", "a-2"), null));
        assertThat(redispatched.path("admission").path("podSetAssignments").path(0).has("topologyAssignment")).isFalse();
    }
}
