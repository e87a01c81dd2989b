package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.PendingWorkloadView;
import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.explain.QuotaAgainstCapacity;
import java.util.ArrayList;
import java.util.stream.IntStream;
import dev.berth.manager.model.WorkloadKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * No pending workload is shown without a reason: one the scheduler has not looked at yet (behind a
 * StrictFIFO head, or queued since the last cycle) says how many come before it, instead of the
 * page's old "not evaluated yet". The first {@link DashboardSnapshot#ANSWERS_PER_QUEUE} of each
 * ClusterQueue carry their explanation's one-line answer (the pending reason when there is none), and
 * the snapshot carries quota against capacity with its marks.
 */
class DashboardPendingReasonTest {
    @Test
    @SuppressWarnings("unchecked")
    void workloadsNotYetEvaluatedSayWhatIsAheadOfThem() {
        var queue = new QuotaSnapshot.QueueQuota("team-a-cq", null, Map.of(), Map.of(), 3);
        List<PendingWorkloadView> inOrder = List.of(
                new PendingWorkloadView(WorkloadKey.of("team-a", "head"), "lq", 0, 1, "couldn't assign flavors to pod set main: insufficient quota"),
                new PendingWorkloadView(WorkloadKey.of("team-a", "second"), "lq", 0, 2, null),
                new PendingWorkloadView(WorkloadKey.of("team-a", "third"), "lq", 0, 3, null));
        Map<String, Object> body = DashboardSnapshot.render(new QuotaSnapshot(List.of(), List.of(queue)), cq -> inOrder, List.of(), List.of());

        var queues = (List<Map<String, Object>>) body.get("clusterQueues");
        var pending = (List<Map<String, Object>>) queues.get(0).get("pending");
        assertThat(pending).extracting(item -> item.get("pendingReason")).containsExactly(
                "couldn't assign flavors to pod set main: insufficient quota",
                "Behind 1 workload in team-a-cq that come first (priority, then creation time); not looked at yet",
                "Behind 2 workloads in team-a-cq that come first (priority, then creation time); not looked at yet");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theFirstPendingWorkloadsCarryTheirOneLineAnswerAndTheRestTheirPendingReason() {
        var queue = new QuotaSnapshot.QueueQuota("team-a-cq", null, Map.of(), Map.of(), 12);
        List<PendingWorkloadView> inOrder = IntStream.range(0, 12).mapToObj(i -> new PendingWorkloadView(
                WorkloadKey.of("team-a", "job-" + i), "lq", 0, i, "insufficient quota")).toList();
        List<WorkloadKey> asked = new ArrayList<>();
        Map<String, Object> body = DashboardSnapshot.render(new QuotaSnapshot(List.of(), List.of(queue)), cq -> inOrder, key -> {
            asked.add(key);
            return key.name().equals("job-1") ? null : "Waiting for 4 nvidia.com/gpu: " + key.name();
        }, List.of(), List.of(), List.of());

        var pending = (List<Map<String, Object>>) ((List<Map<String, Object>>) body.get("clusterQueues")).get(0).get("pending");
        assertThat(asked).as("one diagnosis per shown workload, the first ten only").hasSize(DashboardSnapshot.ANSWERS_PER_QUEUE);
        assertThat(pending.get(0)).containsEntry("answer", "Waiting for 4 nvidia.com/gpu: job-0")
                .containsEntry("pendingReason", "insufficient quota");
        assertThat(pending.get(1)).as("no answer: the pending reason").containsEntry("answer", "insufficient quota");
        assertThat(pending.get(11)).as("past the first ten: the pending reason").containsEntry("answer", "insufficient quota");
    }

    @Test
    @SuppressWarnings("unchecked")
    void quotaAgainstCapacityRowsCarryAmountsAndTheirMarks() {
        String gpu = "nvidia.com/gpu";
        Map<String, Object> body = DashboardSnapshot.render(new QuotaSnapshot(List.of(), List.of()), cq -> List.of(), key -> null,
                List.of(new QuotaAgainstCapacity.Row("a100", gpu, 20, 14, 16, 2, 1),
                        new QuotaAgainstCapacity.Row("a100-spot", gpu, 0, 0, 16, 16, 1)), List.of(), List.of());

        var capacity = (List<Map<String, Object>>) body.get("capacity");
        assertThat(capacity.get(0)).containsEntry("flavor", "a100").containsEntry("nominalQuota", 20L)
                .containsEntry("nominalQuotaText", "20").containsEntry("inUseText", "14").containsEntry("allocatableText", "16")
                .containsEntry("freeText", "2").containsEntry("healthyClusters", 1).containsEntry("overcommitted", true)
                .containsEntry("idleBeyondQuota", 0L);
        assertThat(capacity.get(1)).containsEntry("flavor", "a100-spot").containsEntry("overcommitted", false)
                .containsEntry("idleBeyondQuota", 16L).containsEntry("idleBeyondQuotaText", "16");
    }
}
