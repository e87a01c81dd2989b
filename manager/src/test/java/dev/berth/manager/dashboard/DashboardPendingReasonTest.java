package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.PendingWorkloadView;
import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.model.WorkloadKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * No pending workload is shown without a reason: one the scheduler has not looked at yet (behind a
 * StrictFIFO head, or queued since the last cycle) says how many come before it, instead of the
 * page's old "not evaluated yet".
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
}
