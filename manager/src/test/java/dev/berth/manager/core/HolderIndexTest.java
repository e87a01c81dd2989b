package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.scheduling.QuotaTree;
import dev.berth.manager.testing.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Holders in the planner's victim order: lower priority, then most recently reserved, then key. */
class HolderIndexTest {
    private final HolderIndex index = new HolderIndex();

    private QuotaTree tree(String cohortOfB) {
        return QuotaTree.build(List.of(
                clusterQueue("a").cohort("pool").group(flavor("default", quota("cpu", "4"))).build(),
                clusterQueue("b").cohort(cohortOfB).group(flavor("default", quota("cpu", "4"))).build()), List.of());
    }

    private WorkloadEntry holder(String name, int priority, long reservedAt) {
        WorkloadEntry entry = new WorkloadEntry(Fixtures.workload("ns", name).priority(priority).request("cpu", "1").build(), true, null);
        entry.reservedAtMillis = reservedAt;
        entry.usage = Map.of();
        return entry;
    }

    private static List<String> names(Iterable<WorkloadEntry> entries) {
        List<String> names = new java.util.ArrayList<>();
        entries.forEach(e -> names.add(e.key().name()));
        return names;
    }

    @Test
    void aTreeListsEveryQueuesHoldersInVictimOrder() {
        QuotaTree quota = tree("pool");
        index.reserved(holder("a-high-old", 10, 100), "a", quota);
        index.reserved(holder("b-low-old", 0, 100), "b", quota);
        index.reserved(holder("a-low-new", 0, 300), "a", quota);
        index.reserved(holder("b-low-new-y", 0, 300), "b", quota);

        assertThat(names(index.inTree("a", quota))).containsExactly("a-low-new", "b-low-new-y", "b-low-old", "a-high-old");
        assertThat(names(index.inQueue("a"))).containsExactly("a-low-new", "a-high-old");
    }

    @Test
    void releasedHoldersLeaveBothViewsAndTheirPlannerView() {
        QuotaTree quota = tree("pool");
        WorkloadEntry gone = holder("gone", 0, 100);
        index.reserved(gone, "a", quota);
        index.reserved(holder("kept", 0, 200), "b", quota);
        assertThat(gone.holderView.key()).isEqualTo(WorkloadKey.of("ns", "gone"));
        assertThat(names(index.inTree("b", quota))).containsExactly("kept", "gone");

        index.released(gone, "a", quota);
        assertThat(names(index.inTree("b", quota))).containsExactly("kept");
        assertThat(index.inQueue("a")).isEmpty();
        assertThat(gone.holderView).isNull();
    }

    @Test
    void aRebuiltQuotaTreeRegroupsTheTrees() {
        QuotaTree together = tree("pool");
        index.reserved(holder("in-a", 0, 100), "a", together);
        index.reserved(holder("in-b", 0, 200), "b", together);
        assertThat(names(index.inTree("a", together))).containsExactly("in-b", "in-a");

        QuotaTree apart = tree("other");
        index.treesChanged();
        assertThat(names(index.inTree("a", apart))).containsExactly("in-a");
        assertThat(names(index.inTree("b", apart))).containsExactly("in-b");
    }
}
