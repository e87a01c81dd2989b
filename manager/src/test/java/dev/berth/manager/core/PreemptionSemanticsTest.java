package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
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

/** Kueue's classic preemption: policies, the minimal victim set, reasons, and what happens to victims. */
class PreemptionSemanticsTest {
    private static final PreemptionPolicy NEVER = PreemptionPolicy.NEVER;
    private static final PreemptionPolicy LOWER = PreemptionPolicy.LOWER_PRIORITY;
    private static final PreemptionPolicy LOWER_OR_NEWER = PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY;
    private static final PreemptionPolicy ANY = PreemptionPolicy.ANY;

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("a StrictFIFO head that needs preemption without candidates keeps its idle nominal quota from borrowers", s -> {
                    unreclaimableSetup(s, NEVER);
                    for (int cycle = 0; cycle < 3; cycle++) s.schedule();
                    assertThat(s.reserved("team-a/needs")).isFalse();
                    assertThat(s.pendingMessage("team-a/needs")).contains("preemption policies do not allow");
                    assertThat(s.reserved("team-b/borrower")).isFalse();
                }),
                row("with reclaimWithinCohort Any the stuck head reserves nothing: its idle quota may be lent", s -> {
                    unreclaimableSetup(s, ANY);
                    s.schedule();
                    assertThat(s.reserved("team-a/needs")).isFalse();
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                }),
                row("withinClusterQueue Never: a higher-priority workload waits", s -> {
                    single(s, NEVER);
                    s.run(s.w("team", "low").priority(0).request("cpu", "4"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team/low")).isTrue();
                    assertThat(s.reserved("team/high")).isFalse();
                }),
                row("withinClusterQueue LowerPriority: a lower-priority workload is preempted InClusterQueue", s -> {
                    single(s, LOWER);
                    s.run(s.w("team", "low").priority(0).request("cpu", "4"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team/high")).isTrue();
                    assertPreempted(s, "team/low", "InClusterQueue");
                    assertThat(s.condition("team/low", Conditions.PREEMPTED).message())
                            .isEqualTo("Preempted to accommodate a workload (team/high) due to prioritization in the ClusterQueue");
                }),
                row("withinClusterQueue LowerPriority: an equal-priority newer workload is not preempted", s -> {
                    single(s, LOWER);
                    s.run(s.w("team", "newer").createdAt(500).request("cpu", "4"));
                    s.run(s.w("team", "older").createdAt(100).request("cpu", "4"));
                    assertThat(s.admitted("team/newer")).isTrue();
                    assertThat(s.reserved("team/older")).isFalse();
                }),
                row("withinClusterQueue LowerOrNewerEqualPriority: an equal-priority newer workload is preempted", s -> {
                    single(s, LOWER_OR_NEWER);
                    s.run(s.w("team", "newer").createdAt(500).request("cpu", "4"));
                    s.run(s.w("team", "older").createdAt(100).request("cpu", "4"));
                    assertThat(s.admitted("team/older")).isTrue();
                    assertPreempted(s, "team/newer", "InClusterQueue");
                }),
                row("withinClusterQueue LowerOrNewerEqualPriority: an equal-priority older workload is not preempted", s -> {
                    single(s, LOWER_OR_NEWER);
                    s.run(s.w("team", "older").createdAt(100).request("cpu", "4"));
                    s.run(s.w("team", "newer").createdAt(500).request("cpu", "4"));
                    assertThat(s.admitted("team/older")).isTrue();
                    assertThat(s.reserved("team/newer")).isFalse();
                }),
                row("reclaimWithinCohort Never: borrowed quota is not reclaimed", s -> {
                    pair(s, NEVER);
                    s.run(s.w("team-b", "borrower").priority(0).request("cpu", "8"));
                    s.run(s.w("team-a", "owner").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                    assertThat(s.reserved("team-a/owner")).isFalse();
                }),
                row("reclaimWithinCohort LowerPriority: a lower-priority borrower is preempted InCohortReclamation", s -> {
                    pair(s, LOWER);
                    s.run(s.w("team-b", "borrower").priority(0).request("cpu", "8"));
                    s.run(s.w("team-a", "owner").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertPreempted(s, "team-b/borrower", "InCohortReclamation");
                }),
                row("reclaimWithinCohort LowerPriority: an equal-priority borrower is not preempted", s -> {
                    pair(s, LOWER);
                    s.run(s.w("team-b", "borrower").priority(5).request("cpu", "8"));
                    s.run(s.w("team-a", "owner").priority(5).request("cpu", "4"));
                    assertThat(s.admitted("team-b/borrower")).isTrue();
                    assertThat(s.reserved("team-a/owner")).isFalse();
                }),
                row("reclaimWithinCohort Any: even a higher-priority borrower is preempted", s -> {
                    pair(s, ANY);
                    s.run(s.w("team-b", "borrower").priority(100).request("cpu", "8"));
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertPreempted(s, "team-b/borrower", "InCohortReclamation");
                }),
                row("reclaimWithinCohort Any: only queues that borrow lose workloads", s -> {
                    s.flavors("default")
                            .cq(clusterQueue("team-a").cohort("pool").preemption(NEVER, ANY).group(flavor("default", quota("cpu", "4"))))
                            .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "4"))))
                            .cq(clusterQueue("team-c").cohort("pool").group(flavor("default", quota("cpu", "4"))));
                    s.run(s.w("team-c", "within-nominal").priority(0).request("cpu", "4"));
                    s.run(s.w("team-b", "borrower").priority(0).request("cpu", "6"));
                    s.run(s.w("team-a", "owner").priority(0).request("cpu", "4"));
                    assertThat(s.admitted("team-a/owner")).isTrue();
                    assertThat(s.admitted("team-c/within-nominal")).isTrue();
                    assertPreempted(s, "team-b/borrower", "InCohortReclamation");
                }),
                row("borrowWithinCohort Never: no preemption in other queues while the preemptor would borrow", s -> {
                    borrowWithin(s, NEVER, null);
                    s.run(s.w("team-a", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-b/low")).isTrue();
                    assertThat(s.reserved("team-a/high")).isFalse();
                }),
                row("borrowWithinCohort LowerPriority: preempts while borrowing, InCohortReclaimWhileBorrowing", s -> {
                    borrowWithin(s, LOWER, null);
                    s.run(s.w("team-a", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-a/high")).isTrue();
                    assertPreempted(s, "team-b/low", "InCohortReclaimWhileBorrowing");
                    assertThat(s.condition("team-b/low", Conditions.PREEMPTED).message()).endsWith("due to reclamation within the cohort while borrowing");
                }),
                row("borrowWithinCohort maxPriorityThreshold at the victim's priority allows the preemption", s -> {
                    borrowWithin(s, LOWER, 0);
                    s.run(s.w("team-a", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-a/high")).isTrue();
                    assertPreempted(s, "team-b/low", "InCohortReclaimWhileBorrowing");
                }),
                row("borrowWithinCohort maxPriorityThreshold below the victim's priority forbids the preemption", s -> {
                    borrowWithin(s, LOWER, -1);
                    s.run(s.w("team-a", "high").priority(10).request("cpu", "4"));
                    assertThat(s.admitted("team-b/low")).isTrue();
                    assertThat(s.reserved("team-a/high")).isFalse();
                }),
                row("minimal victim set: 2 of 4 candidates, lowest priority first, then most recently admitted", s -> {
                    single(s, LOWER);
                    s.run(s.w("team", "p0-first").priority(0).request("cpu", "1"));
                    s.run(s.w("team", "p1").priority(1).request("cpu", "1"));
                    s.run(s.w("team", "p0-second").priority(0).request("cpu", "1"));
                    s.run(s.w("team", "p0-third").priority(0).request("cpu", "1"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.admitted("team/high")).isTrue();
                    assertPreempted(s, "team/p0-third", "InClusterQueue");
                    assertPreempted(s, "team/p0-second", "InClusterQueue");
                    assertThat(s.admitted("team/p0-first")).isTrue();
                    assertThat(s.admitted("team/p1")).isTrue();
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(4000);
                }),
                row("minimal victim set: a large low-priority victim alone suffices, small ones are kept", s -> {
                    single(s, LOWER);
                    s.run(s.w("team", "big").priority(0).request("cpu", "2"));
                    s.run(s.w("team", "small-1").priority(1).request("cpu", "1"));
                    s.run(s.w("team", "small-2").priority(1).request("cpu", "1"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertPreempted(s, "team/big", "InClusterQueue");
                    assertThat(s.admitted("team/small-1")).isTrue();
                    assertThat(s.admitted("team/small-2")).isTrue();
                    assertThat(s.admitted("team/high")).isTrue();
                }),
                row("a victim requeued in the same instant as its preemptor queues behind it (no preempt/readmit loop)", s -> {
                    s.flavors("default").controller.applyAdmissionCheck("prov", true);
                    s.cq(clusterQueue("team").preemption(LOWER_OR_NEWER, NEVER).admissionCheck("prov")
                            .group(flavor("default", quota("cpu", "2"))));
                    s.run(s.w("team", "z-older").createdAt(100).request("cpu", "2"));
                    s.run(s.w("team", "a-newer").createdAt(200).request("cpu", "2"));
                    s.controller.setAdmissionCheckState(Scenario.key("team/z-older"), "prov", "Retry", "");
                    CycleReport report = s.schedule();
                    assertThat(report.cycles()).isLessThan(10);
                    assertThat(s.reserved("team/z-older")).isTrue();
                    assertPreempted(s, "team/a-newer", "InClusterQueue");
                    assertThat(s.reserved("team/a-newer")).isFalse();
                }),
                row("one cycle issues every preemption of a cohort whose targets do not overlap (Kueue's scheduler)", s -> {
                    pairWithin(s);
                    s.run(s.w("team-a", "low-a").priority(0).request("cpu", "4"));
                    s.run(s.w("team-b", "low-b").priority(0).request("cpu", "4"));
                    s.submit(s.w("team-a", "high-a").priority(10).request("cpu", "4"));
                    s.submit(s.w("team-b", "high-b").priority(10).request("cpu", "4"));
                    CycleReport first = s.controller.schedule(1);
                    assertThat(first.cycles()).isEqualTo(1);
                    assertThat(first.preempted()).isEqualTo(2);
                    assertPreempted(s, "team-a/low-a", "InClusterQueue");
                    assertPreempted(s, "team-b/low-b", "InClusterQueue");
                    assertThat(s.pendingMessage("team-a/high-a")).isEqualTo("Pending the preemption of 1 workload(s)");
                    assertThat(s.pendingMessage("team-b/high-b")).isEqualTo("Pending the preemption of 1 workload(s)");
                    s.schedule();
                    assertThat(s.admitted("team-a/high-a")).isTrue();
                    assertThat(s.admitted("team-b/high-b")).isTrue();
                }),
                row("a preemption whose targets an earlier preemption of the cycle took waits for a later cycle", s -> {
                    s.flavors("default")
                            .cq(clusterQueue("team-a").cohort("pool").preemption(NEVER, LOWER).group(flavor("default", quota("cpu", "4"))))
                            .cq(clusterQueue("team-b").cohort("pool").preemption(NEVER, LOWER).group(flavor("default", quota("cpu", "4"))))
                            .cq(clusterQueue("team-c").cohort("pool").group(flavor("default", quota("cpu", "0"))));
                    s.run(s.w("team-c", "borrower").priority(0).request("cpu", "8"));
                    s.submit(s.w("team-a", "owner-a").priority(10).request("cpu", "4"));
                    s.submit(s.w("team-b", "owner-b").priority(10).request("cpu", "4"));
                    CycleReport first = s.controller.schedule(1);
                    assertThat(first.preempted()).isEqualTo(1);
                    assertPreempted(s, "team-c/borrower", "InCohortReclamation");
                    s.schedule();
                    assertThat(s.admitted("team-a/owner-a")).isTrue();
                    assertThat(s.admitted("team-b/owner-b")).isTrue();
                    assertThat(s.usage("team-c", "default/cpu")).isZero();
                }),
                row("a preempted workload is Evicted and Requeued, and comes back when capacity frees", s -> {
                    single(s, LOWER);
                    s.run(s.w("team", "low").priority(0).request("cpu", "4"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "4"));
                    WorkloadStatus victim = s.status("team/low");
                    assertThat(victim.condition(Conditions.EVICTED).reason()).isEqualTo("Preempted");
                    assertThat(victim.condition(Conditions.REQUEUED).status()).isTrue();
                    assertThat(victim.condition(Conditions.QUOTA_RESERVED).status()).isFalse();
                    assertThat(victim.condition(Conditions.ADMITTED).status()).isFalse();
                    assertThat(victim.admission()).isNull();
                    assertThat(victim.requeueCount()).isEqualTo(1);
                    assertThat(s.controller.pendingIn("team")).containsExactly(Scenario.key("team/low"));
                    s.finish("team/high").schedule();
                    WorkloadStatus back = s.status("team/low");
                    assertThat(back.isTrue(Conditions.ADMITTED)).isTrue();
                    assertThat(back.isTrue(Conditions.EVICTED)).isFalse();
                    assertThat(back.isTrue(Conditions.PREEMPTED)).isFalse();
                    assertThat(back.isTrue(Conditions.REQUEUED)).isFalse();
                }));
    }

    private static void assertPreempted(Scenario s, String key, String reason) {
        WorkloadStatus status = s.status(key);
        boolean readmitted = status.isTrue(Conditions.QUOTA_RESERVED);
        Condition preempted = status.condition(Conditions.PREEMPTED);
        assertThat(preempted).as(key + " preempted").isNotNull();
        if (!readmitted) {
            assertThat(preempted.status()).isTrue();
            assertThat(preempted.reason()).isEqualTo(reason);
            assertThat(status.condition(Conditions.EVICTED).reason()).isEqualTo("Preempted");
        } else {
            assertThat(preempted.message()).startsWith("Previously: Preempted");
        }
    }

    private static void single(Scenario s, PreemptionPolicy withinClusterQueue) {
        s.flavors("default").cq(clusterQueue("team").preemption(withinClusterQueue, NEVER).group(flavor("default", quota("cpu", "4"))));
    }

    /** team-a (reclaims with the policy) and team-b, 4 cpu each, in one cohort. */
    private static void pair(Scenario s, PreemptionPolicy reclaim) {
        s.flavors("default")
                .cq(clusterQueue("team-a").cohort("pool").preemption(NEVER, reclaim).group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "4"))));
    }

    /** team-a and team-b, 4 cpu each, in one cohort, each preempting lower priorities within itself. */
    private static void pairWithin(Scenario s) {
        s.flavors("default")
                .cq(clusterQueue("team-a").cohort("pool").preemption(LOWER, NEVER).group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-b").cohort("pool").preemption(LOWER, NEVER).group(flavor("default", quota("cpu", "4"))));
    }

    /** team-a, team-b and a lender with 2 cpu each; team-b's low-priority workload borrows 2, so team-a can only get 4 by borrowing. */
    private static void borrowWithin(Scenario s, PreemptionPolicy borrowWithinCohort, Integer threshold) {
        s.flavors("default")
                .cq(clusterQueue("team-a").cohort("pool").preemption(new Preemption(NEVER, LOWER, borrowWithinCohort, threshold))
                        .group(flavor("default", quota("cpu", "2"))))
                .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "2"))))
                .cq(clusterQueue("lender").cohort("pool").group(flavor("default", quota("cpu", "2"))));
        s.run(s.w("team-b", "low").priority(0).request("cpu", "4"));
        assertThat(s.admitted("team-b/low")).isTrue();
    }

    /**
     * team-a (StrictFIFO, nominal 4) runs a priority-10 workload on 2 and has a priority-5 head that
     * needs all 4 but may preempt no one; team-b (nominal 0) has a workload that would borrow 2.
     */
    private static void unreclaimableSetup(Scenario s, PreemptionPolicy reclaim) {
        s.flavors("default")
                .cq(clusterQueue("team-a").cohort("pool").strategy(dev.berth.manager.model.QueueingStrategy.STRICT_FIFO)
                        .preemption(LOWER, reclaim).group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "0"))));
        s.run(s.w("team-a", "high").priority(10).request("cpu", "2"));
        s.submit(s.w("team-a", "needs").priority(5).request("cpu", "4"));
        s.submit(s.w("team-b", "borrower").priority(0).request("cpu", "2"));
    }
}
