package dev.berth.manager.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchHistoryEntry;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.dispatch.DispatchParts;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Workload's whole status as its owned parts: putting the admission controller's part in replaces
 * only its fields, putting the dispatcher's part in writes only the fields that changed, and what
 * neither owns (written by others through the API) is kept by both.
 */
class WorkloadStatusJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-12-01T12:00:05Z");
    private static final JsonNode WORKLOAD_AT_GENERATION_3 = json("{\"metadata\":{\"generation\":3}}");

    private static final String STORED = "{"
            + "\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":\"True\",\"reason\":\"QuotaReserved\",\"message\":\"old\","
            + "\"lastTransitionTime\":\"2026-12-01T12:00:00Z\",\"observedGeneration\":1}],"
            + "\"admission\":{\"clusterQueue\":\"cq\",\"podSetAssignments\":[]},"
            + "\"requeueState\":{\"count\":2},"
            + "\"admissionChecks\":[{\"name\":\"mk\",\"state\":\"Ready\",\"podSetUpdates\":[{\"name\":\"main\",\"labels\":{\"a\":\"b\"}}]},"
            + "{\"name\":\"prov\",\"state\":\"Ready\",\"podSetUpdates\":[{\"name\":\"main\"}]}],"
            + "\"nominatedClusterNames\":[\"east\"],"
            + "\"dispatch\":{\"cluster\":\"east\",\"attemptId\":\"a-1\",\"phase\":\"Running\",\"fromANewerManager\":1},"
            + "\"clusterName\":\"east\","
            + "\"dispatchHistory\":[{\"attemptId\":\"a-1\",\"attempt\":1,\"cluster\":\"east\",\"dispatchTime\":\"2026-12-01T12:00:05Z\","
            + "\"outcome\":\"Dispatched\",\"lastUpdateTime\":\"2026-12-01T12:00:05Z\",\"extra\":true}],"
            + "\"dispatchHolds\":[{\"cluster\":\"x\",\"attemptId\":\"a-0\",\"since\":\"yesterday\",\"leaseGoneAt\":\"2026-12-01T12:00:05Z\"}],"
            + "\"reclaimablePods\":[{\"name\":\"main\",\"count\":1}]}";

    @Test
    void theAdmissionPartReplacesOnlyItsOwnFieldsAndKeepsTheDispatchersAndOthersByteForByte() {
        JsonNode stored = json(STORED);
        WorkloadStatus admission = new WorkloadStatus(
                List.of(new Condition("QuotaReserved", false, "Pending", "new", AT)), null,
                List.of(new AdmissionCheckState("mk", "Ready", null, null), new AdmissionCheckState("prov", "Retry", "again", null)), 0);

        ObjectNode written = WorkloadStatusJson.withAdmission(stored, admission, WORKLOAD_AT_GENERATION_3);

        assertThat(written.path("conditions").toString()).isEqualTo("[{\"type\":\"QuotaReserved\",\"status\":\"False\",\"reason\":\"Pending\","
                + "\"message\":\"new\",\"lastTransitionTime\":\"2026-12-01T12:00:05Z\",\"observedGeneration\":3}]");
        assertThat(written.has("admission")).as("the controller's part no longer has one").isFalse();
        assertThat(written.has("requeueState")).isFalse();
        assertThat(written.path("admissionChecks").get(0).path("podSetUpdates")).as("kept while the check stays Ready")
                .isEqualTo(stored.path("admissionChecks").get(0).path("podSetUpdates"));
        assertThat(written.path("admissionChecks").get(1).has("podSetUpdates")).as("dropped once it is not Ready").isFalse();
        for (String field : List.of("clusterName", "dispatch", "dispatchHistory", "dispatchHolds", "nominatedClusterNames", "reclaimablePods")) {
            assertThat(written.get(field)).as(field).isEqualTo(stored.get(field));
        }
        assertThat(fieldNames(written)).as("the controller's fields, then the dispatcher's, then the others")
                .containsExactly("conditions", "admissionChecks", "clusterName", "dispatch", "dispatchHistory", "dispatchHolds",
                        "nominatedClusterNames", "reclaimablePods");
        assertThat(stored).as("the stored status is not changed").isEqualTo(json(STORED));
    }

    @Test
    void theAdmissionPartOfAWorkloadWithoutStatusIsTheControllersStatusAlone() {
        WorkloadStatus admission = new WorkloadStatus(List.of(), new Admission("cq",
                List.of(new PodSetAssignment("main", Map.of("cpu", "default"), Map.of("cpu", 2000L), 2))), List.of(), 1, AT, 30L);

        ObjectNode written = WorkloadStatusJson.withAdmission(JSON.missingNode(), admission, WORKLOAD_AT_GENERATION_3);

        assertThat(written).isEqualTo(StatusJson.workloadStatus(admission));
    }

    @Test
    void everyDispatchFieldRoundTripsThroughTheParts() {
        DispatchParts parts = new DispatchParts("roomy",
                new DispatchStatus("roomy", "a-2", "Running", new DispatchStatus.PodCounts(2, 1, 0, 2), "Admitted", "running",
                        List.of(new DispatchStatus.PodProblem("p-0", "c", "OOMKilled", "137"))),
                List.of(new DispatchHistoryEntry("a-1", 1, "small", AT, "Stopped", "LeaseExpired", AT.plusSeconds(60)),
                        new DispatchHistoryEntry("a-2", 2, "roomy", AT.plusSeconds(61), "Dispatched", null, AT.plusSeconds(61))),
                List.of(new DispatchHold("small", "a-1", true, AT.plusNanos(5), AT.plusSeconds(90)),
                        new DispatchHold("other", "a-0", false, AT, AT.plusSeconds(900))));

        ObjectNode written = WorkloadStatusJson.withDispatch(JSON.missingNode(), DispatchParts.NONE, parts);

        assertThat(WorkloadStatusJson.dispatchPartsOf(written)).isEqualTo(parts);
        assertThat(written.path("clusterName").asText()).isEqualTo("roomy");
        assertThat(fieldNames(written)).containsExactly("clusterName", "dispatch", "dispatchHistory", "dispatchHolds");
        assertThat(WorkloadStatusJson.dispatchPartsOf(JSON.createObjectNode())).isEqualTo(DispatchParts.NONE);
    }

    @Test
    void aDispatchChangeWritesOnlyTheFieldThatChangedAndKeepsTheRestAsStored() {
        JsonNode stored = json(STORED);
        DispatchParts before = WorkloadStatusJson.dispatchPartsOf(stored);

        ObjectNode written = WorkloadStatusJson.withDispatch(stored, before,
                before.withOutcome("a-1", "east", 1, "Succeeded", "done", AT.plusSeconds(30)));

        assertThat(written.path("dispatchHistory").get(0).path("outcome").asText()).isEqualTo("Succeeded");
        assertThat(written.path("dispatchHistory").get(0).has("extra")).as("a rewritten part is in the codec's shape").isFalse();
        ObjectNode rest = written.deepCopy();
        rest.remove("dispatchHistory");
        ObjectNode storedRest = ((ObjectNode) stored).deepCopy();
        storedRest.remove("dispatchHistory");
        assertThat(rest).as("the admission part, the others' fields, and the dispatch fields not changed (unknown and unreadable "
                + "entries included) stay as stored").isEqualTo(storedRest);
    }

    @Test
    void noDispatchOrNoHoldsRemovesTheirFields() {
        JsonNode stored = json(STORED);
        DispatchParts before = WorkloadStatusJson.dispatchPartsOf(stored);
        DispatchParts held = before.withHolds(List.of(new DispatchHold("x", "a-9", false, AT, AT.plusSeconds(60))));
        ObjectNode withHold = WorkloadStatusJson.withDispatch(stored, before, held);

        ObjectNode cleared = WorkloadStatusJson.withDispatch(withHold, held, held.withDispatch(null, null).withHolds(List.of()));

        assertThat(cleared.has("dispatch")).isFalse();
        assertThat(cleared.has("clusterName")).isFalse();
        assertThat(cleared.has("dispatchHolds")).isFalse();
        assertThat(cleared.path("dispatchHistory")).isEqualTo(stored.path("dispatchHistory"));
        assertThat(cleared.path("conditions")).isEqualTo(stored.path("conditions"));
    }

    @Test
    void anUnchangedDispatchPartWritesNothingNew() {
        JsonNode stored = json(STORED);
        DispatchParts before = WorkloadStatusJson.dispatchPartsOf(stored);

        assertThat(WorkloadStatusJson.withDispatch(stored, before, before)).isEqualTo(stored);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
