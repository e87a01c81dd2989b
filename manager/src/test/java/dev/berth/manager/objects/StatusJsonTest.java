package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.FlavorUsage;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StatusJsonTest {
    private static final Instant T = Instant.parse("2026-01-02T03:04:05Z");

    private static final WorkloadStatus ADMITTED = new WorkloadStatus(
            List.of(new Condition("QuotaReserved", true, "QuotaReserved", "Quota reserved in ClusterQueue cq", T),
                    new Condition("Admitted", false, "Pending", "waiting for checks", T.plusSeconds(1))),
            new Admission("cq", List.of(new PodSetAssignment("main",
                    Map.of("cpu", "on-demand", "memory", "on-demand", "nvidia.com/gpu", "a100"),
                    Map.of("cpu", 1500L, "memory", 2147483648L, "nvidia.com/gpu", 4L), 2))),
            List.of(new AdmissionCheckState("prov", "Pending", "provisioning", T)),
            3);

    @Test
    void workloadStatusInKueueSchema() {
        assertThat(StatusJson.workloadStatus(ADMITTED)).isEqualTo(yaml("""
                conditions:
                - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: Quota reserved in ClusterQueue cq, lastTransitionTime: "2026-01-02T03:04:05Z"}
                - {type: Admitted, status: "False", reason: Pending, message: waiting for checks, lastTransitionTime: "2026-01-02T03:04:06Z"}
                admission:
                  clusterQueue: cq
                  podSetAssignments:
                  - name: main
                    flavors: {cpu: on-demand, memory: on-demand, nvidia.com/gpu: a100}
                    resourceUsage: {cpu: 1500m, memory: 2Gi, nvidia.com/gpu: "4"}
                    count: 2
                admissionChecks:
                - {name: prov, state: Pending, message: provisioning, lastTransitionTime: "2026-01-02T03:04:05Z"}
                requeueState: {count: 3}
                """));
    }

    static Stream<Arguments> roundTrips() {
        return Stream.of(
                Arguments.of("an admitted workload with checks and requeues", ADMITTED),
                Arguments.of("an empty status", WorkloadStatus.EMPTY),
                Arguments.of("a finished workload without admission", new WorkloadStatus(
                        List.of(new Condition("Finished", true, "Succeeded", "done", T)), null, List.of(), 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTrips")
    void renderThenParseGivesTheSameStatus(String behaviour, WorkloadStatus status) {
        assertThat(StatusJson.parseWorkloadStatus(StatusJson.workloadStatus(status))).isEqualTo(status);
    }

    @Test
    void absentPartsAreOmitted() {
        assertThat(StatusJson.workloadStatus(WorkloadStatus.EMPTY)).isEqualTo(yaml("{}"));
    }

    @Test
    void subSecondTimesAreWrittenAtSecondsPrecision() {
        WorkloadStatus status = new WorkloadStatus(List.of(new Condition("Finished", true, "Succeeded", "", T.plusMillis(999))),
                null, List.of(), 0);

        assertThat(StatusJson.workloadStatus(status).path("conditions").get(0).path("lastTransitionTime").asText())
                .isEqualTo("2026-01-02T03:04:05Z");
    }

    static Stream<Arguments> clientWrites() {
        return Stream.of(
                Arguments.of("a check set Ready by its controller",
                        "admissionChecks: [{name: prov, state: Ready, lastTransitionTime: \"2026-01-02T03:04:05Z\"}]",
                        new WorkloadStatus(List.of(), null, List.of(new AdmissionCheckState("prov", "Ready", null, T)), 0)),
                Arguments.of("a Finished condition with an offset time",
                        "conditions: [{type: Finished, status: \"True\", reason: Succeeded, message: ok, lastTransitionTime: \"2026-01-02T04:04:05+01:00\"}]",
                        new WorkloadStatus(List.of(new Condition("Finished", true, "Succeeded", "ok", T)), null, List.of(), 0)),
                Arguments.of("quantities written as numbers",
                        "admission: {clusterQueue: cq, podSetAssignments: [{name: main, flavors: {cpu: f}, resourceUsage: {cpu: 2}}]}",
                        new WorkloadStatus(List.of(), new Admission("cq", List.of(new PodSetAssignment("main", Map.of("cpu", "f"), Map.of("cpu", 2000L), 0))), List.of(), 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clientWrites")
    void parsesWhatClientsWrite(String behaviour, String status, WorkloadStatus expected) {
        assertThat(StatusJson.parseWorkloadStatus(yaml(status))).isEqualTo(expected);
    }

    static Stream<Arguments> badStatuses() {
        return Stream.of(
                Arguments.of("an unknown check state", "admissionChecks: [{name: prov, state: Done}]", List.of("status.admissionChecks[0].state")),
                Arguments.of("conditions that are not a list", "conditions: {type: Finished}", List.of("status.conditions")),
                Arguments.of("a condition status that is not True, False or Unknown", "conditions: [{type: Finished, status: yes}]",
                        List.of("status.conditions[0].status")),
                Arguments.of("a time that is not RFC 3339", "conditions: [{type: Finished, status: \"True\", lastTransitionTime: yesterday}]",
                        List.of("status.conditions[0].lastTransitionTime")),
                Arguments.of("an unreadable resource usage and a count that is text",
                        "admission: {clusterQueue: cq, podSetAssignments: [{name: main, resourceUsage: {cpu: lots}, count: two}]}",
                        List.of("status.admission.podSetAssignments[0].resourceUsage[cpu]", "status.admission.podSetAssignments[0].count")),
                Arguments.of("a requeue count that is negative", "requeueState: {count: -1}", List.of("status.requeueState.count")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badStatuses")
    void refusesWrongTypesWithFieldPaths(String behaviour, String status, List<String> fields) {
        InvalidObjectException refusal = catchThrowableOfType(InvalidObjectException.class,
                () -> StatusJson.parseWorkloadStatus(yaml(status)));

        assertThat(refusal).as("refused").isNotNull();
        assertThat(refusal.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refusal)).containsExactlyInAnyOrderElementsOf(fields);
    }

    @Test
    void queueStatusInKueueSchema() {
        QueueStatus status = new QueueStatus(2, 1, 1,
                List.of(new FlavorUsage("on-demand", List.of(new FlavorUsage.ResourceUsage("cpu", 2500, 500),
                        new FlavorUsage.ResourceUsage("memory", 4294967296L, 0)))),
                List.of(new FlavorUsage("on-demand", List.of(new FlavorUsage.ResourceUsage("cpu", 1000, 0)))),
                List.of(new Condition("Active", true, "Ready", "Can admit new workloads", T)));

        assertThat(StatusJson.queueStatus(status)).isEqualTo(yaml("""
                pendingWorkloads: 2
                reservingWorkloads: 1
                admittedWorkloads: 1
                flavorsReservation:
                - name: on-demand
                  resources:
                  - {name: cpu, total: 2500m, borrowed: 500m}
                  - {name: memory, total: 4Gi, borrowed: "0"}
                flavorsUsage:
                - name: on-demand
                  resources:
                  - {name: cpu, total: "1", borrowed: "0"}
                conditions:
                - {type: Active, status: "True", reason: Ready, message: Can admit new workloads, lastTransitionTime: "2026-01-02T03:04:05Z"}
                """));
    }
}
