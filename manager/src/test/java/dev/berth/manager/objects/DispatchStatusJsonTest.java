package dev.berth.manager.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DispatchHistoryEntry;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.dispatch.DispatchStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one codec of status.dispatch, dispatchHistory and dispatchHolds: every field round-trips, the wire
 * shape is the one tests, explain and the dashboard read, and fields it does not know are ignored on read
 * (a newer manager's additions do not break an older one) and not written back.
 */
class DispatchStatusJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-12-01T12:00:05Z");

    @Test
    void aReportedDispatchRoundTripsEveryFieldInTheWireShape() throws Exception {
        DispatchStatus reported = new DispatchStatus("roomy", "a-1", "Running", new DispatchStatus.PodCounts(2, 1, 3), "Admitted",
                "running on 2 nodes", List.of(new DispatchStatus.PodProblem("p-0", "c", "ImagePullBackOff", null)));

        ObjectNode json = DispatchStatusJson.encode(reported);

        assertThat(json).isEqualTo(JSON.readTree("{\"cluster\":\"roomy\",\"attemptId\":\"a-1\",\"phase\":\"Running\",\"podsRunning\":2,"
                + "\"podsSucceeded\":1,\"podsFailed\":3,\"reason\":\"Admitted\",\"message\":\"running on 2 nodes\","
                + "\"podProblems\":[{\"pod\":\"p-0\",\"container\":\"c\",\"reason\":\"ImagePullBackOff\",\"message\":null}]}"));
        assertThat(DispatchStatusJson.dispatchOf(status(DispatchStatusJson.DISPATCH, json))).isEqualTo(reported);
    }

    @Test
    void aFreshDispatchHasOnlyClusterAttemptAndPhaseAndIsNotReported() throws Exception {
        DispatchStatus fresh = DispatchStatus.dispatched("small", "a-2");

        assertThat(DispatchStatusJson.encode(fresh))
                .isEqualTo(JSON.readTree("{\"cluster\":\"small\",\"attemptId\":\"a-2\",\"phase\":\"Dispatched\"}"));
        DispatchStatus read = DispatchStatusJson.dispatchOf(status(DispatchStatusJson.DISPATCH, DispatchStatusJson.encode(fresh)));
        assertThat(read).isEqualTo(fresh);
        assertThat(read.reported()).isFalse();
        assertThat(read.pods()).as("no counts before the cluster reported").isNull();
    }

    @Test
    void noDispatchBlockOrOneWithoutAnAttemptReadsAsNone() throws Exception {
        assertThat(DispatchStatusJson.dispatchOf(JSON.createObjectNode())).isNull();
        assertThat(DispatchStatusJson.dispatchOf(JSON.readTree("{\"dispatch\":{\"cluster\":\"x\",\"attemptId\":\"\"}}"))).isNull();
    }

    @Test
    void unknownFieldsAreIgnoredOnReadAndNotWrittenBack() throws Exception {
        JsonNode status = JSON.readTree("{\"dispatch\":{\"cluster\":\"x\",\"attemptId\":\"a\",\"phase\":\"Admitted\",\"fromTheFuture\":1},"
                + "\"dispatchHistory\":[{\"attemptId\":\"a\",\"attempt\":1,\"cluster\":\"x\",\"dispatchTime\":\"2026-12-01T12:00:05Z\","
                + "\"outcome\":\"Dispatched\",\"lastUpdateTime\":\"2026-12-01T12:00:05Z\",\"extra\":true}]}");

        DispatchStatus dispatch = DispatchStatusJson.dispatchOf(status);
        assertThat(dispatch).isEqualTo(new DispatchStatus("x", "a", "Admitted", null, null, null, List.of()));
        assertThat(DispatchStatusJson.encode(dispatch).has("fromTheFuture")).isFalse();
        assertThat(DispatchStatusJson.encodeHistory(DispatchStatusJson.historyOf(status)).get(0).has("extra")).isFalse();
    }

    @Test
    void historyEntriesRoundTripWithTimesInWholeSeconds() throws Exception {
        List<DispatchHistoryEntry> history = List.of(
                new DispatchHistoryEntry("a-1", 1, "small, roomy", AT, "Stopped", "LeaseExpired", AT.plusSeconds(60)),
                new DispatchHistoryEntry("a-2", 2, "roomy", AT.plusSeconds(61), "Dispatched", null, AT.plusSeconds(61)));

        JsonNode json = DispatchStatusJson.encodeHistory(history);

        assertThat(json.get(0)).isEqualTo(JSON.readTree("{\"attemptId\":\"a-1\",\"attempt\":1,\"cluster\":\"small, roomy\","
                + "\"dispatchTime\":\"2026-12-01T12:00:05Z\",\"outcome\":\"Stopped\",\"reason\":\"LeaseExpired\","
                + "\"lastUpdateTime\":\"2026-12-01T12:01:05Z\"}"));
        assertThat(json.get(1).has("reason")).isFalse();
        assertThat(DispatchStatusJson.historyOf(status(DispatchStatusJson.HISTORY, json))).isEqualTo(history);
        assertThat(DispatchStatusJson.encodeHistory(List.of(new DispatchHistoryEntry("a", 1, "x", AT.plusMillis(900), "Dispatched", null,
                AT))).get(0).path("dispatchTime").asText()).as("as Kubernetes times are written").isEqualTo("2026-12-01T12:00:05Z");
    }

    @Test
    void recordingAnOutcomeUpdatesTheAttemptsEntryAndKeepsTheLatestTwenty() {
        List<DispatchHistoryEntry> history = DispatchHistoryEntry.recorded(List.of(), "a-1", "roomy", 1, "Dispatched", null, AT);
        history = DispatchHistoryEntry.recorded(history, "a-1", "ignored", 9, "Succeeded", "done", AT.plusSeconds(9));

        assertThat(history).containsExactly(new DispatchHistoryEntry("a-1", 1, "roomy", AT, "Succeeded", "done", AT.plusSeconds(9)));
        List<DispatchHistoryEntry> many = new ArrayList<>(history);
        for (int n = 2; n <= 25; n++) many = DispatchHistoryEntry.recorded(many, "a-" + n, "roomy", n, "Dispatched", null, AT);
        assertThat(many).hasSize(DispatchHistoryEntry.KEPT);
        assertThat(many.get(0).attempt()).isEqualTo(6);
        assertThat(DispatchHistoryEntry.attemptsMade(many)).isEqualTo(25);
        assertThat(DispatchHistoryEntry.attemptsMade(List.of())).isZero();
    }

    @Test
    void holdsRoundTripWithFullPrecisionAndTheirKindAsTheReason() throws Exception {
        DispatchHold unconfirmed = new DispatchHold("roomy", "a-1", true, AT.plusNanos(123_456_789), AT.plusSeconds(71).plusNanos(5));
        DispatchHold oldPods = new DispatchHold("small", "a-0", false, AT, AT.plusSeconds(900));

        JsonNode json = DispatchStatusJson.encodeHolds(List.of(unconfirmed, oldPods));

        assertThat(json.get(0)).isEqualTo(JSON.readTree("{\"cluster\":\"roomy\",\"attemptId\":\"a-1\",\"reason\":\"DispatchUnconfirmed\","
                + "\"since\":\"2026-12-01T12:00:05.123456789Z\",\"leaseGoneAt\":\"2026-12-01T12:01:16.000000005Z\"}"));
        assertThat(json.get(1).path("reason").asText()).isEqualTo("OldPodsRunning");
        assertThat(DispatchStatusJson.holdsOf(status(DispatchStatusJson.HOLDS, json))).containsExactly(unconfirmed, oldPods);
        assertThat(unconfirmed.toFence().unconfirmedCreate()).isTrue();
        assertThat(DispatchHold.of(oldPods.toFence())).isEqualTo(oldPods);
    }

    @Test
    void aHoldRaisedWhileTheAgentWasLostSaysSoAndRestoresAsSuch() throws Exception {
        DispatchHold afterAgentLoss = new DispatchHold("small", "a-0", false, AT, AT.plusSeconds(900), true);

        JsonNode json = DispatchStatusJson.encodeHolds(List.of(afterAgentLoss));

        assertThat(json.get(0).path("agentLost").asBoolean()).isTrue();
        assertThat(DispatchStatusJson.holdsOf(status(DispatchStatusJson.HOLDS, json))).containsExactly(afterAgentLoss);
        assertThat(afterAgentLoss.toFence().agentLost()).isTrue();
        assertThat(DispatchHold.of(afterAgentLoss.toFence())).isEqualTo(afterAgentLoss);
        assertThat(DispatchStatusJson.encodeHolds(List.of(new DispatchHold("small", "a-0", false, AT, AT.plusSeconds(900)))).get(0)
                .has("agentLost")).as("written only when true").isFalse();
    }

    @Test
    void aHoldThatCannotBeReadIsSkippedNotFatal() throws Exception {
        JsonNode status = JSON.readTree("{\"dispatchHolds\":[{\"cluster\":\"x\",\"attemptId\":\"a\",\"since\":\"yesterday\","
                + "\"leaseGoneAt\":\"2026-12-01T12:00:05Z\"},{\"attemptId\":\"b\",\"since\":\"2026-12-01T12:00:05Z\","
                + "\"leaseGoneAt\":\"2026-12-01T12:00:05Z\"},{\"cluster\":\"y\",\"attemptId\":\"c\",\"since\":\"2026-12-01T12:00:05Z\","
                + "\"leaseGoneAt\":\"2026-12-01T12:00:05Z\"}]}");

        assertThat(DispatchStatusJson.holdsOf(status)).extracting(DispatchHold::attemptId).containsExactly("c");
    }

    private static ObjectNode status(String field, JsonNode value) {
        ObjectNode status = JSON.createObjectNode();
        status.set(field, value);
        return status;
    }
}
