package dev.berth.manager.dashboard;

import dev.berth.manager.core.PendingWorkloadView;
import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.explain.QuotaAgainstCapacity;
import dev.berth.manager.explain.WorkerClusterRow;
import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one dashboard update carries: cohorts with their bars, every ClusterQueue's pending workloads
 * in the scheduler's order (the first {@link #PENDING_PER_QUEUE}, with the total; the first
 * {@link #ANSWERS_PER_QUEUE} with their explanation's one-line answer), quota against capacity per
 * flavor and resource, the worker clusters and the newest events. Nothing in it depends on the time it was taken (ages are computed in the
 * page), so two snapshots of an unchanged manager are equal and nothing is pushed.
 */
public final class DashboardSnapshot {
    public static final int PENDING_PER_QUEUE = 50;
    public static final int EVENTS = 200;
    /** How many pending workloads per ClusterQueue get the explanation's answer (one diagnosis each). */
    public static final int ANSWERS_PER_QUEUE = 10;

    private DashboardSnapshot() {}

    public static Map<String, Object> render(QuotaSnapshot quota, Function<String, List<PendingWorkloadView>> pendingInOrder,
                                             List<WorkerClusterRow> clusters, List<DashboardEvent> events) {
        return render(quota, pendingInOrder, key -> null, QuotaAgainstCapacity.of(quota, clusters), clusters, events);
    }

    /**
     * @param answers  a pending workload's one-line answer (null: none), asked for the first
     *                 {@link #ANSWERS_PER_QUEUE} of each ClusterQueue only
     * @param capacity quota against capacity, from the same quota snapshot and clusters
     */
    public static Map<String, Object> render(QuotaSnapshot quota, Function<String, List<PendingWorkloadView>> pendingInOrder,
                                             Function<WorkloadKey, String> answers, List<QuotaAgainstCapacity.Row> capacity,
                                             List<WorkerClusterRow> clusters, List<DashboardEvent> events) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("cohorts", QueueBars.render(quota));
        body.put("clusterQueues", quota.clusterQueues().stream()
                .sorted(java.util.Comparator.comparing(QuotaSnapshot.QueueQuota::name))
                .map(q -> queue(q, pendingInOrder.apply(q.name()), answers)).toList());
        body.put("capacity", CapacityTable.render(capacity));
        body.put("clusters", ClusterCards.render(clusters));
        body.put("events", events);
        return body;
    }

    private static Map<String, Object> queue(QuotaSnapshot.QueueQuota queue, List<PendingWorkloadView> inOrder,
                                             Function<WorkloadKey, String> answers) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", queue.name());
        m.put("cohort", queue.cohort());
        m.put("pendingCount", inOrder.size());
        List<Map<String, Object>> items = new ArrayList<>();
        Map<String, Integer> perLocalQueue = new LinkedHashMap<>();
        for (int position = 0; position < inOrder.size(); position++) {
            PendingWorkloadView view = inOrder.get(position);
            int inLocalQueue = perLocalQueue.merge(view.key().namespace() + "/" + view.localQueue(), 1, Integer::sum) - 1;
            if (position >= PENDING_PER_QUEUE) continue;
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("namespace", view.key().namespace());
            item.put("name", view.key().name());
            item.put("position", position);
            item.put("positionInLocalQueue", inLocalQueue);
            item.put("priority", view.priority());
            item.put("localQueue", view.localQueue());
            item.put("created", Instant.ofEpochMilli(view.creationMillis()).truncatedTo(ChronoUnit.SECONDS).toString());
            String reason = view.pendingReason() != null ? view.pendingReason() : behind(position, queue.name());
            item.put("pendingReason", reason);
            String answer = position < ANSWERS_PER_QUEUE ? answers.apply(view.key()) : null;
            item.put("answer", answer != null ? answer : reason);
            items.add(item);
        }
        m.put("pending", items);
        return m;
    }

    /** The reason of a workload the scheduler has not looked at yet: the ones ahead of it decide first. */
    static String behind(int position, String clusterQueue) {
        if (position == 0) return "Next in " + clusterQueue + "; the scheduler decides it in its next cycle";
        return "Behind " + position + (position == 1 ? " workload" : " workloads") + " in " + clusterQueue
                + " that come first (priority, then creation time); not looked at yet";
    }
}
