package dev.berth.manager.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The events a queue gets: summaries of its workloads' transitions and changes of its Active condition. */
class QueueTransitionsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode status(String json) throws Exception {
        return JSON.readTree(json);
    }

    private static QueueStatus queue(boolean active, String reason, String message) {
        return new QueueStatus(0, 0, 0, List.of(), List.of(), List.of(new Condition(Conditions.ACTIVE, active, reason, message, T0)));
    }

    @Test
    void anAdmittedWorkloadIsNamedOnItsQueues() {
        WorkloadStatus next = new WorkloadStatus(List.of(
                new Condition(Conditions.QUOTA_RESERVED, true, "QuotaReserved", "Quota reserved in ClusterQueue cq", T0),
                new Condition(Conditions.ADMITTED, true, "Admitted", "The workload is admitted", T0)), null, List.of(), 0);
        assertThat(QueueTransitions.forWorkload("team-a/x", MissingNode.getInstance(), next)).containsExactly(
                new WorkloadEvent("Normal", "Admitted", "Admitted workload team-a/x"));
    }

    @Test
    void quotaReservedWhileChecksArePendingIsItsOwnEvent() {
        WorkloadStatus next = new WorkloadStatus(List.of(
                new Condition(Conditions.QUOTA_RESERVED, true, "QuotaReserved", "Quota reserved in ClusterQueue cq", T0)), null, List.of(), 0);
        assertThat(QueueTransitions.forWorkload("team-a/x", MissingNode.getInstance(), next)).containsExactly(
                new WorkloadEvent("Normal", "QuotaReserved", "Quota reserved for workload team-a/x"));
    }

    @Test
    void aPreemptionOnTheQueueCarriesItsReason() throws Exception {
        WorkloadStatus next = new WorkloadStatus(List.of(
                new Condition(Conditions.EVICTED, true, "Preempted", "Preempted to accommodate a workload", T0),
                new Condition(Conditions.PREEMPTED, true, "InClusterQueue", "Preempted to accommodate a workload (UID: team-a/y)", T0)),
                null, List.of(), 0);
        JsonNode before = status("{\"conditions\":[{\"type\":\"Admitted\",\"status\":\"True\"}]}");
        assertThat(QueueTransitions.forWorkload("team-a/x", before, next)).containsExactly(new WorkloadEvent("Normal", "Preempted",
                "Preempted workload team-a/x (InClusterQueue): Preempted to accommodate a workload (UID: team-a/y)"));
    }

    @Test
    void stoppingAQueueIsAWarningNamingTheStopPolicy() throws Exception {
        JsonNode before = status("{\"conditions\":[{\"type\":\"Active\",\"status\":\"True\",\"reason\":\"Ready\"}]}");
        assertThat(QueueTransitions.activity(before, queue(false, "Stopped", "Can't admit new workloads: is stopped"), "HoldAndDrain"))
                .contains(new WorkloadEvent("Warning", "Stopped", "Can't admit new workloads: is stopped (stopPolicy HoldAndDrain)"));
    }

    @Test
    void restartingAQueueSaysWhatItWas() throws Exception {
        JsonNode before = status("{\"conditions\":[{\"type\":\"Active\",\"status\":\"False\",\"reason\":\"FlavorNotFound\"}]}");
        assertThat(QueueTransitions.activity(before, queue(true, "Ready", "Can admit new workloads"), ""))
                .contains(new WorkloadEvent("Normal", "Ready", "Can admit new workloads (was FlavorNotFound)"));
    }

    @Test
    void anUnchangedConditionOrANewActiveQueueIsNoEvent() throws Exception {
        JsonNode ready = status("{\"conditions\":[{\"type\":\"Active\",\"status\":\"True\",\"reason\":\"Ready\"}]}");
        assertThat(QueueTransitions.activity(ready, queue(true, "Ready", "Can admit new workloads"), "")).isEmpty();
        assertThat(QueueTransitions.activity(MissingNode.getInstance(), queue(true, "Ready", "Can admit new workloads"), "")).isEmpty();
        assertThat(QueueTransitions.activity(MissingNode.getInstance(), queue(false, "FlavorNotFound", "missing a100"), ""))
                .contains(new WorkloadEvent("Warning", "FlavorNotFound", "missing a100"));
    }
}
