package dev.berth.manager.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.Admission;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What Kueue's job reconciler does to the job when its workload's status changes, one behaviour per test. */
class JobTransitionsTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode NO_STATUS = JSON.createObjectNode();

    private static Condition yes(String type, String message) {
        return new Condition(type, true, type, message, T);
    }

    private static WorkloadStatus status(List<Condition> conditions, List<AdmissionCheckState> checks) {
        Admission admission = new Admission("team-a-cq", List.of());
        return new WorkloadStatus(conditions, admission, checks, 0);
    }

    private static List<String> events(JobTransitions.FollowUp followUp) {
        return followUp.events().stream().map(e -> e.reason() + ": " + e.message()).toList();
    }

    @Test
    void anAdmittedWorkloadStartsItsSuspendedJob() {
        var followUp = JobTransitions.follow("team-a/wl", NO_STATUS, status(List.of(yes("QuotaReserved", ""), yes("Admitted", "")), List.of()), true);
        assertThat(followUp.suspend()).isFalse();
        assertThat(events(followUp)).containsExactly("Started: Admitted by clusterQueue team-a-cq");
    }

    @Test
    void anEvictedWorkloadStopsItsRunningJobWithTheEvictionMessage() {
        var followUp = JobTransitions.follow("team-a/wl", NO_STATUS,
                status(List.of(yes("Evicted", "Preempted to accommodate a higher priority Workload")), List.of()), false);
        assertThat(followUp.suspend()).isTrue();
        assertThat(events(followUp)).containsExactly("Stopped: Preempted to accommodate a higher priority Workload");
    }

    @Test
    void aFinishedWorkloadIsDeclaredFinishedOnceAndLeavesSuspendAlone() {
        WorkloadStatus finished = status(List.of(yes("Finished", "done")), List.of());
        var first = JobTransitions.follow("team-a/wl", NO_STATUS, finished, false);
        assertThat(first.suspend()).isNull();
        assertThat(events(first)).containsExactly("FinishedWorkload: Workload 'team-a/wl' is declared finished");
        JsonNode before = JSON.valueToTree(Map.of("conditions", List.of(Map.of("type", "Finished", "status", "True"))));
        assertThat(JobTransitions.follow("team-a/wl", before, finished, false).events()).isEmpty();
    }

    @Test
    void aWaitingJobWithQuotaHearsOfItsPendingChecksWhenTheirMessagesChange() {
        List<AdmissionCheckState> checks = List.of(new AdmissionCheckState("multikueue", "Pending", "no worker cluster has room", T));
        WorkloadStatus reserved = status(List.of(yes("QuotaReserved", "")), checks);
        var followUp = JobTransitions.follow("team-a/wl", NO_STATUS, reserved, true);
        assertThat(followUp.suspend()).isNull();
        assertThat(events(followUp)).containsExactly("UpdatedAdmissionCheck: multikueue: no worker cluster has room");
        JsonNode same = JSON.valueToTree(Map.of("admissionChecks",
                List.of(Map.of("name", "multikueue", "state", "Pending", "message", "no worker cluster has room"))));
        assertThat(JobTransitions.follow("team-a/wl", same, reserved, true).events()).isEmpty();
    }
}
