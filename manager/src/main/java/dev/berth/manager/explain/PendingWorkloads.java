package dev.berth.manager.explain;

import dev.berth.manager.core.PendingWorkloadView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kueue's pending workloads on demand: positions in the ClusterQueue and in the LocalQueue follow
 * the scheduler's own order (the ClusterQueue's pending queue), then the list is filtered to one
 * LocalQueue if asked and cut to offset/limit.
 */
public final class PendingWorkloads {
    /** Kueue's default page size. */
    public static final int DEFAULT_LIMIT = 1000;

    private PendingWorkloads() {}

    public record Item(String name, String namespace, long creationMillis, int priority, String localQueueName,
                       int positionInClusterQueue, int positionInLocalQueue, String pendingReason) {
    }

    /**
     * @param inOrder   the ClusterQueue's pending workloads in the scheduler's order
     * @param namespace with localQueue, restricts the answer to one LocalQueue; null for the whole ClusterQueue
     */
    public static List<Item> page(List<PendingWorkloadView> inOrder, String namespace, String localQueue, int offset, int limit) {
        Map<String, Integer> seenPerLocalQueue = new HashMap<>();
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < inOrder.size(); i++) {
            PendingWorkloadView view = inOrder.get(i);
            String localKey = view.key().namespace() + "/" + view.localQueue();
            int inLocal = seenPerLocalQueue.merge(localKey, 1, Integer::sum) - 1;
            if (namespace != null && !(namespace.equals(view.key().namespace()) && localQueue.equals(view.localQueue()))) continue;
            items.add(new Item(view.key().name(), view.key().namespace(), view.creationMillis(), view.priority(),
                    view.localQueue(), i, inLocal, view.pendingReason()));
        }
        int from = Math.min(offset, items.size());
        int to = (int) Math.min((long) from + limit, items.size());
        return List.copyOf(items.subList(from, to));
    }
}
