package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.cohort;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.protocol.Conditions;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's hierarchical reclaim (issue 14 rule 2, kueue classical/hierarchical_preemption.go): a
 * ClusterQueue whose own subtree provides quota may take it back from a queue elsewhere in the tree
 * that borrows it, whatever the borrower's priority under reclaimWithinCohort Any, even though the
 * reclaiming queue itself has no nominal quota. A borrower inside the same subtree gets no such
 * treatment, and after the swap the borrower cannot take the quota back.
 *
 * <p>The tree: root with cohorts left and right. In left, team-a (nominal 0) and team-a-lender
 * (nominal 4, idle); in right, team-b (nominal 0) whose workload borrows left's 4 cpu.
 */
class HierarchicalReclaimSemanticsTest {
    private static final PreemptionPolicy NEVER = PreemptionPolicy.NEVER;
    private static final PreemptionPolicy LOWER = PreemptionPolicy.LOWER_PRIORITY;
    private static final PreemptionPolicy ANY = PreemptionPolicy.ANY;

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("a queue whose subtree lends the quota reclaims it from a higher-priority borrower in another subtree", s -> {
                    tree(s, ANY, new Preemption(NEVER, NEVER, NEVER, null));
                    s.run(s.w("team-b", "borrower").priority(100).request("cpu", "4"));
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertThat(s.evicted("team-b/borrower")).isTrue();
                    assertThat(s.condition("team-b/borrower", Conditions.PREEMPTED).reason()).isEqualTo("InCohortReclamation");
                    assertThat(s.usage("team-b", "default/cpu")).isZero();
                }),
                row("quota held by the subtree's cohort itself is reclaimed the same way", s -> {
                    s.flavors("default")
                            .cohort(cohort("left", "root", flavor("default", quota("cpu", "4"))))
                            .cohort(cohort("right", "root"))
                            .cq(clusterQueue("team-a").cohort("left").preemption(NEVER, ANY).group(flavor("default", quota("cpu", "0"))))
                            .cq(clusterQueue("team-b").cohort("right").group(flavor("default", quota("cpu", "0"))));
                    s.run(s.w("team-b", "borrower").priority(100).request("cpu", "4"));
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertThat(s.reserved("team-b/borrower")).isFalse();
                }),
                row("after the swap the borrower cannot take the quota back, even with borrowWithinCohort and when capacity changes", s -> {
                    tree(s, ANY, new Preemption(LOWER, ANY, PreemptionPolicy.LOWER_PRIORITY, null));
                    s.cq(clusterQueue("team-c").cohort("right").group(flavor("default", quota("cpu", "1"))));
                    s.run(s.w("team-c", "small").request("cpu", "1"));
                    s.run(s.w("team-b", "borrower").priority(100).request("cpu", "4"));
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.reserved("team-b/borrower")).isFalse();
                    s.finish("team-c/small");
                    for (int cycle = 0; cycle < 3; cycle++) s.schedule();
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertThat(s.condition("team-a/owner", Conditions.PREEMPTED)).isNull();
                    assertThat(s.reserved("team-b/borrower")).isFalse();
                    assertThat(s.pendingMessage("team-b/borrower")).contains("insufficient unused quota");
                }),
                row("under reclaimWithinCohort LowerPriority a lower-priority borrower elsewhere is reclaimed", s -> {
                    tree(s, LOWER, new Preemption(NEVER, NEVER, NEVER, null));
                    s.run(s.w("team-b", "borrower").priority(0).request("cpu", "4"));
                    s.run(s.w("team-a", "owner").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertThat(s.condition("team-b/borrower", Conditions.PREEMPTED).reason()).isEqualTo("InCohortReclamation");
                }),
                row("under reclaimWithinCohort LowerPriority a higher-priority borrower elsewhere keeps the quota", s -> {
                    tree(s, LOWER, new Preemption(NEVER, NEVER, NEVER, null));
                    s.run(s.w("team-b", "borrower").priority(100).request("cpu", "4"));
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                    assertThat(s.reserved("team-a/owner")).isFalse();
                }),
                row("with reclaimWithinCohort Never nothing is reclaimed", s -> {
                    tree(s, NEVER, new Preemption(NEVER, NEVER, NEVER, null));
                    s.run(s.w("team-b", "borrower").priority(0).request("cpu", "4"));
                    s.run(s.w("team-a", "owner").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                    assertThat(s.reserved("team-a/owner")).isFalse();
                }),
                row("a borrower inside the same subtree is not reclaimed: the reclaimer would itself borrow", s -> {
                    tree(s, ANY, new Preemption(NEVER, NEVER, NEVER, null));
                    s.cq(clusterQueue("team-a-sibling").cohort("left").group(flavor("default", quota("cpu", "0"))));
                    s.run(s.w("team-a-sibling", "borrower").priority(100).request("cpu", "4"));
                    assertThat(s.admitted("team-a-sibling/borrower")).isTrue();
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-a-sibling/borrower")).isTrue();
                    assertThat(s.reserved("team-a/owner")).isFalse();
                }));
    }

    /** root → left (team-a: nominal 0, reclaiming with {@code reclaim}; team-a-lender: nominal 4) and right (team-b: nominal 0). */
    private static void tree(Scenario s, PreemptionPolicy reclaim, Preemption borrowerPreemption) {
        s.flavors("default")
                .cohort(cohort("left", "root"))
                .cohort(cohort("right", "root"))
                .cq(clusterQueue("team-a").cohort("left").preemption(NEVER, reclaim).group(flavor("default", quota("cpu", "0"))))
                .cq(clusterQueue("team-a-lender").cohort("left").group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-b").cohort("right").preemption(borrowerPreemption).group(flavor("default", quota("cpu", "0"))));
    }
}
