package dev.berth.manager.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PendingQueue keeps workloads in groups of one shape and skips a known misfit's whole group; it must
 * offer exactly the heads the earlier queue offered, which scanned workload by workload and moved parked
 * ones out and back (EagerPendingQueue). Random histories of arrivals, deletions, nominations that fit,
 * fail or preempt, evictions that requeue a workload at a later queue time, and capacity changes.
 */
class PendingQueueTest {
    private static final long[] CPUS = {1, 2, 5, 10, 40};
    private static final int[] PRIORITIES = {50, 100, 200};

    @Test
    void offersTheSameHeadsAsScanningWorkloadByWorkload() {
        for (int seed = 0; seed < 100; seed++) {
            replay(new Random(seed), seed % 7 == 0 ? QueueingStrategy.STRICT_FIFO : QueueingStrategy.BEST_EFFORT_FIFO);
        }
    }

    private static void replay(Random random, QueueingStrategy strategy) {
        PendingQueue lazy = new PendingQueue();
        EagerPendingQueue eager = new EagerPendingQueue();
        List<WorkloadEntry> pending = new ArrayList<>();
        List<WorkloadEntry> outside = new ArrayList<>();
        long generation = 0;
        long clock = 0;
        int created = 0;
        for (int step = 0; step < 400; step++) {
            int action = random.nextInt(10);
            if (action < 3 || pending.isEmpty()) {
                WorkloadEntry entry = outside.isEmpty() || random.nextBoolean()
                        ? newEntry(random, created++, clock++) : outside.remove(random.nextInt(outside.size()));
                entry.queueOrderMillis = clock++;
                pending.add(entry);
                lazy.add(entry);
                eager.add(entry);
            } else if (action == 3) {
                WorkloadEntry entry = pending.remove(random.nextInt(pending.size()));
                assertThat(lazy.remove(entry)).isEqualTo(eager.remove(entry));
            } else if (action == 4) {
                generation++;
            } else {
                WorkloadEntry head = lazy.pollHead(strategy, generation);
                assertThat(head).isSameAs(eager.pollHead(strategy, generation));
                if (head != null) decide(random, head, lazy, eager, pending, outside, strategy, generation);
            }
            assertThat(lazy.size()).isEqualTo(eager.size());
            // The grouped queue counts every known misfit as parked, the eager one only those its scans passed.
            assertThat(lazy.parkedCount()).isBetween(eager.parkedCount(), lazy.size());
            assertThat(lazy.inOrder()).containsExactlyElementsOf(eager.inOrder());
        }
    }

    private static void decide(Random random, WorkloadEntry head, PendingQueue lazy, EagerPendingQueue eager,
                               List<WorkloadEntry> pending, List<WorkloadEntry> outside, QueueingStrategy strategy,
                               long generation) {
        switch (random.nextInt(5)) {
            case 0 -> { // admitted: leaves the queue, may come back later at a later queue time (evicted)
                pending.remove(head);
                outside.add(head);
            }
            case 1 -> {
                lazy.putBack(head);
                eager.putBack(head);
            }
            case 2 -> {
                lazy.putBackAsPreemptor(head);
                eager.putBackAsPreemptor(head);
            }
            default -> {
                boolean quotaOnly = random.nextInt(4) != 0;
                lazy.park(head, strategy, generation, quotaOnly);
                eager.park(head, strategy, generation, quotaOnly);
            }
        }
    }

    private static WorkloadEntry newEntry(Random random, int index, long createdAt) {
        long cpu = CPUS[random.nextInt(CPUS.length)];
        // Now and then partial admission (minCount), which no known misfit matches.
        Integer minCount = random.nextInt(8) == 0 ? 1 : null;
        PodSetRequest podSet = new PodSetRequest("main", 1 + random.nextInt(2), minCount, Map.of("cpu", cpu * 1000),
                Map.of(), List.of(), List.of());
        WorkloadRequest request = new WorkloadRequest(WorkloadKey.of("ns", "wl-" + index), "lq",
                PRIORITIES[random.nextInt(PRIORITIES.length)], createdAt, List.of(podSet));
        return new WorkloadEntry(request, true, WorkloadStatus.EMPTY);
    }
}
