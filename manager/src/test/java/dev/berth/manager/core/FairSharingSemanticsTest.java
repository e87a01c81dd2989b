package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.scheduling.FairSharingStrategy;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's fair sharing: the dominant resource share (DRS) decides who gets free capacity first and
 * who may be preempted, scaled by fairSharing.weight; the preemption strategies each alone and both.
 * Every row has a lender with 4 cpu and two queues with no nominal quota, so all their usage is borrowed.
 */
class FairSharingSemanticsTest {
    private static final FairSharingStrategy FINAL = FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE;
    private static final FairSharingStrategy INITIAL = FairSharingStrategy.LESS_THAN_INITIAL_SHARE;

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static SchedulerOptions fair(FairSharingStrategy... strategies) {
        return new SchedulerOptions(true, List.of(strategies), null);
    }

    /** Admission fair sharing with a 10 minute half-life, sampled every minute. */
    static final SchedulerOptions ADMISSION_FAIR_SHARING = SchedulerOptions.DEFAULTS.withAdmissionFairSharing(
            new AdmissionFairSharing(Duration.ofMinutes(10), Duration.ofMinutes(1), Map.of()));

    @ParameterizedTest(name = "{0}")
    @MethodSource("admissionFairSharingRows")
    void admissionFairSharingBehavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> admissionFairSharingRows() {
        return Stream.of(
                row("admission fair sharing: the LocalQueue that consumed less goes first, before priority", ADMISSION_FAIR_SHARING, s -> {
                    usageContest(s, 1.0, true);
                    s.submit(s.w("heavy", "next").priority(10).request("cpu", "2"));
                    s.submit(s.w("light", "next").priority(0).request("cpu", "2"));
                    s.schedule();
                    assertThat(s.admitted("light/next")).isTrue();
                    assertThat(s.reserved("heavy/next")).isFalse();
                    assertThat(s.controller.pendingIn("team")).containsExactly(Scenario.key("heavy/next"));
                }),
                row("admission fair sharing: the LocalQueue's fairSharing.weight divides its usage", ADMISSION_FAIR_SHARING, s -> {
                    usageContest(s, 10.0, true);
                    s.run(s.w("light", "small").request("cpu", "1"));
                    s.finish("light/small");
                    s.submit(s.w("heavy", "next").priority(0).request("cpu", "2"));
                    s.submit(s.w("light", "next").priority(10).request("cpu", "2"));
                    s.schedule();
                    assertThat(s.admitted("heavy/next")).isTrue();
                    assertThat(s.reserved("light/next")).isFalse();
                }),
                row("admission fair sharing: a ClusterQueue without admissionScope keeps priority order", ADMISSION_FAIR_SHARING, s -> {
                    usageContest(s, 1.0, false);
                    s.submit(s.w("heavy", "next").priority(10).request("cpu", "2"));
                    s.submit(s.w("light", "next").priority(0).request("cpu", "2"));
                    s.schedule();
                    assertThat(s.admitted("heavy/next")).isTrue();
                    assertThat(s.localQueueStatus("heavy").admissionFairSharing()).isNull();
                }),
                row("admission fair sharing: consumedResources decay towards what the LocalQueue runs, by the half-life", ADMISSION_FAIR_SHARING, s -> {
                    usageContest(s, 1.0, true);
                    s.run(s.w("heavy", "running").request("cpu", "2"));
                    // The admission charged 2 cpu * (1 - 0.5^(1m/10m)) = 134m at once; each sample moves 6.7% of the way to 2 cpu.
                    long charged = s.localQueueStatus("heavy").admissionFairSharing().consumedResources().get("cpu");
                    assertThat(charged).isBetween(260L, 275L);
                    s.clock.advance(Duration.ofMinutes(1));
                    s.schedule();
                    long afterOneInterval = s.localQueueStatus("heavy").admissionFairSharing().consumedResources().get("cpu");
                    assertThat(afterOneInterval).isBetween(380L, 395L);
                    s.clock.advance(Duration.ofHours(2));
                    s.schedule();
                    LocalQueueFairSharingStatus later = s.localQueueStatus("heavy").admissionFairSharing();
                    assertThat(later.consumedResources().get("cpu")).isBetween(1995L, 2000L);
                    assertThat(later.lastUpdate()).isEqualTo(s.clock.instant());
                    assertThat(s.localQueueStatus("light").admissionFairSharing().consumedResources()).isEmpty();
                }));
    }

    /**
     * ClusterQueue team (2 cpu, admission fair sharing when {@code afs}) fed by LocalQueues heavy/lq
     * (with the given weight) and light/lq; heavy has run one 2-cpu workload, which finished.
     */
    private static void usageContest(Scenario s, double heavyWeight, boolean afs) {
        var queue = clusterQueue("team").group(flavor("default", quota("cpu", "2")));
        s.flavors("default").cq(afs ? queue.usageBasedAdmissionFairSharing() : queue);
        s.controller.applyLocalQueue(new LocalQueueSpec("heavy", "lq", "team", StopPolicy.NONE, heavyWeight));
        s.controller.applyLocalQueue(new LocalQueueSpec("light", "lq", "team", StopPolicy.NONE, 1.0));
        s.run(s.w("heavy", "first").request("cpu", "2"));
        s.finish("heavy/first");
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("status.fairSharing.weightedShare: borrowed x 1000 / lendable / weight, rounded up", fair(FINAL, INITIAL), s -> {
                    s.flavors("default")
                            .cq(clusterQueue("lender").cohort("pool").group(flavor("default", quota("cpu", "3"))))
                            .cq(clusterQueue("team").cohort("pool").group(flavor("default", quota("cpu", "0"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.queueStatus("team").weightedShare()).isEqualTo(334L);
                    assertThat(s.queueStatus("lender").weightedShare()).isZero();
                }),
                row("status.fairSharing.weightedShare of a zero weight that borrows is the largest int64", fair(FINAL, INITIAL), s -> {
                    s.flavors("default")
                            .cq(clusterQueue("lender").cohort("pool").group(flavor("default", quota("cpu", "3"))))
                            .cq(clusterQueue("team").cohort("pool").weight(0).group(flavor("default", quota("cpu", "0"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(s.queueStatus("team").weightedShare()).isEqualTo(Long.MAX_VALUE);
                }),
                row("a declared Cohort's status carries the share of its subtree", fair(FINAL, INITIAL), s -> {
                    s.cohort(new dev.berth.manager.model.CohortSpec("pool", "org", List.of(), 1.0));
                    s.flavors("default")
                            .cq(clusterQueue("lender").cohort("org").group(flavor("default", quota("cpu", "4"))))
                            .cq(clusterQueue("team").cohort("pool").group(flavor("default", quota("cpu", "2"))));
                    s.run(s.w("team", "w").request("cpu", "3"));
                    assertThat(s.sink.cohorts.get("pool").weightedShare()).isEqualTo(167L); // 1 of 6 lendable cpu
                    assertThat(s.queueStatus("team").weightedShare()).isEqualTo(167L);
                }),
                row("equal weights: the queue with the lower share after admission gets the last free cpu", fair(FINAL, INITIAL), s -> {
                    contest(s, 1.0);
                    assertThat(s.admitted("team-b/next")).isTrue();
                    assertThat(s.reserved("team-a/next")).isFalse();
                }),
                row("fairSharing.weight 2 halves a queue's share: it gets the last free cpu despite using more", fair(FINAL, INITIAL), s -> {
                    contest(s, 2.0);
                    assertThat(s.admitted("team-a/next")).isTrue();
                    assertThat(s.reserved("team-b/next")).isFalse();
                }),
                row("LessThanOrEqualToFinalShare alone allows preemption when the preemptor ends no higher than the victim's queue", fair(FINAL), s -> {
                    threeAgainstOne(s);
                    assertThat(s.admitted("team-a/next")).isTrue();
                    assertThat(s.status("team-b/w3").condition(Conditions.PREEMPTED)).as("the most recently admitted goes first").isNotNull();
                    assertThat(preemptedIn(s, "team-b", 3)).isEqualTo(1);
                }),
                row("LessThanOrEqualToFinalShare alone forbids preemption that leaves the victim's queue below the preemptor", fair(FINAL), s -> {
                    bigAgainstNothing(s);
                    assertThat(s.admitted("team-b/big")).isTrue();
                    assertThat(s.reserved("team-a/want")).isFalse();
                }),
                row("LessThanInitialShare alone allows preemption when the preemptor ends below the victim queue's current share", fair(INITIAL), s -> {
                    bigAgainstNothing(s);
                    assertThat(s.admitted("team-a/want")).isTrue();
                    assertThat(s.condition("team-b/big", Conditions.PREEMPTED).reason()).isIn("InCohortFairSharing", "QuotaReserved");
                }),
                row("both strategies: LessThanInitialShare is the fallback when the first forbids", fair(FINAL, INITIAL), s -> {
                    bigAgainstNothing(s);
                    assertThat(s.admitted("team-a/want")).isTrue();
                    assertThat(s.status("team-b/big").condition(Conditions.PREEMPTED)).isNotNull();
                }),
                row("both strategies: the first strategy preempts one workload when that is enough", fair(FINAL, INITIAL), s -> {
                    threeAgainstOne(s);
                    assertThat(s.admitted("team-a/next")).isTrue();
                    assertThat(preemptedIn(s, "team-b", 3)).isEqualTo(1);
                    assertThat(s.usage("team-b", "default/cpu")).isEqualTo(2000);
                }));
    }

    private static void cohort(Scenario s, double weightOfA) {
        s.flavors("default")
                .cq(clusterQueue("lender").cohort("pool").group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-a").cohort("pool").weight(weightOfA).preemption(PreemptionPolicy.NEVER, PreemptionPolicy.ANY)
                        .group(flavor("default", quota("cpu", "0"))))
                .cq(clusterQueue("team-b").cohort("pool").preemption(PreemptionPolicy.NEVER, PreemptionPolicy.ANY)
                        .group(flavor("default", quota("cpu", "0"))));
    }

    /** team-a runs 2, team-b runs 1, one cpu is left, and each queue has a 1-cpu workload waiting. */
    private static void contest(Scenario s, double weightOfA) {
        s.flavors("default")
                .cq(clusterQueue("lender").cohort("pool").group(flavor("default", quota("cpu", "4"))))
                .cq(clusterQueue("team-a").cohort("pool").weight(weightOfA).group(flavor("default", quota("cpu", "0"))))
                .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "0"))));
        s.run(s.w("team-a", "a1").request("cpu", "1"));
        s.run(s.w("team-a", "a2").request("cpu", "1"));
        s.run(s.w("team-b", "b1").request("cpu", "1"));
        s.submit(s.w("team-a", "next").request("cpu", "1"));
        s.submit(s.w("team-b", "next").request("cpu", "1"));
        s.schedule();
    }

    /** team-b runs 3 x 1 cpu (share 750), team-a runs 1 (250) and wants 1 more: final 500 vs victim queue 500 without one. */
    private static void threeAgainstOne(Scenario s) {
        cohort(s, 1.0);
        s.run(s.w("team-a", "a1").request("cpu", "1"));
        s.run(s.w("team-b", "w1").request("cpu", "1"));
        s.run(s.w("team-b", "w2").request("cpu", "1"));
        s.run(s.w("team-b", "w3").request("cpu", "1"));
        s.run(s.w("team-a", "next").request("cpu", "1"));
    }

    /** team-b runs one 3-cpu workload (share 750); team-a wants 2 (share 500 after): victim queue share without it is 0. */
    private static void bigAgainstNothing(Scenario s) {
        cohort(s, 1.0);
        s.run(s.w("team-b", "big").request("cpu", "3"));
        s.run(s.w("team-a", "want").request("cpu", "2"));
    }

    private static long preemptedIn(Scenario s, String namespace, int workloads) {
        long count = 0;
        for (int i = 1; i <= workloads; i++) {
            if (s.status(namespace + "/w" + i).condition(Conditions.PREEMPTED) != null) count++;
        }
        return count;
    }
}
