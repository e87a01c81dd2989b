package dev.berth.manager.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.QuotaSnapshot;
import dev.berth.manager.core.QuotaSnapshot.CohortNode;
import dev.berth.manager.core.QuotaSnapshot.QueueQuota;
import dev.berth.manager.explain.BorrowingLedger.Line;
import dev.berth.manager.explain.BorrowingLedger.ResourceLedger;
import dev.berth.manager.explain.BorrowingLedger.Share;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BorrowingLedgerTest {
    private static final FlavorResource GPU = new FlavorResource("a100", "nvidia.com/gpu");

    private static QueueQuota queue(String name, long nominal, Long borrowingLimit, Long lendingLimit, long usage) {
        return new QueueQuota(name, "pool", Map.of(GPU, new ResourceQuota(GPU.resource(), nominal, borrowingLimit, lendingLimit)),
                usage == 0 ? Map.of() : Map.of(GPU, usage), 0);
    }

    @Test
    void borrowersTakeFromSiblingsInNameOrderThenFromTheCohort() {
        QuotaSnapshot snapshot = new QuotaSnapshot(List.of(new CohortNode("pool", "org", Map.of()), new CohortNode("org", null, Map.of())),
                List.of(queue("d", 2, null, null, 3), queue("a", 4, 6L, null, 10), queue("b", 4, null, null, 1),
                        queue("c", 8, null, 2L, 0)));
        var pool = BorrowingLedger.of(snapshot).stream().filter(c -> c.name().equals("pool")).findFirst().orElseThrow();
        assertThat(pool.parent()).isEqualTo("org");
        ResourceLedger gpu = pool.resources().get(0);
        Line a = line(gpu, "a");
        assertThat(a.borrowed()).isEqualTo(6);
        assertThat(a.borrowedFrom()).containsExactly(new Share("ClusterQueue", "b", 3), new Share("ClusterQueue", "c", 2),
                new Share("Cohort", "pool", 1));
        assertThat(a.borrowingHeadroom()).isZero();
        assertThat(line(gpu, "b").lent()).isEqualTo(3);
        assertThat(line(gpu, "c").lent()).isEqualTo(2);
        assertThat(line(gpu, "c").lendingHeadroom()).isZero();
        assertThat(line(gpu, "c").lentTo()).containsExactly(new Share("ClusterQueue", "a", 2));
        assertThat(line(gpu, "d").borrowedFrom()).containsExactly(new Share("Cohort", "pool", 1));
        assertThat(gpu.fromCohort()).isEqualTo(2);
        var org = BorrowingLedger.of(snapshot).stream().filter(c -> c.name().equals("org")).findFirst().orElseThrow();
        assertThat(org.childCohorts()).containsExactly("pool");
    }

    @Test
    void borrowedEqualsLentPlusTakenFromTheCohort() {
        Random random = new Random(42);
        for (int round = 0; round < 500; round++) {
            List<QueueQuota> queues = new ArrayList<>();
            int n = 1 + random.nextInt(6);
            for (int i = 0; i < n; i++) {
                long nominal = random.nextInt(10);
                Long lendingLimit = random.nextBoolean() ? (long) random.nextInt(10) : null;
                queues.add(queue("q" + i, nominal, null, lendingLimit, random.nextInt(15)));
            }
            ResourceLedger ledger = BorrowingLedger.of(new QuotaSnapshot(List.of(new CohortNode("pool", null, Map.of())), queues))
                    .get(0).resources().get(0);
            long borrowed = ledger.clusterQueues().stream().mapToLong(Line::borrowed).sum();
            long lent = ledger.clusterQueues().stream().mapToLong(Line::lent).sum();
            assertThat(borrowed).isEqualTo(lent + ledger.fromCohort());
            for (Line line : ledger.clusterQueues()) {
                assertThat(line.borrowedFrom().stream().mapToLong(Share::amount).sum()).isEqualTo(line.borrowed());
                assertThat(line.lentTo().stream().mapToLong(Share::amount).sum()).isEqualTo(line.lent());
                assertThat(line.lent()).isLessThanOrEqualTo(Math.max(0, line.nominal() - line.usage()));
                if (line.lendingLimit() != null) assertThat(line.lent()).isLessThanOrEqualTo(line.lendingLimit());
            }
        }
    }

    private static Line line(ResourceLedger ledger, String queue) {
        return ledger.clusterQueues().stream().filter(l -> l.clusterQueue().equals(queue)).findFirst().orElseThrow();
    }
}
