package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.QueueingStrategy;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's queue order (priority, then creation time), StrictFIFO vs BestEffortFIFO, and requeueing of inadmissible workloads. */
class QueueOrderingSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("hierarchical cohorts: borrowing from a nearer ancestor goes before higher priority borrowing from farther up", s -> {
                    s.flavors("default")
                            .cohort(new dev.berth.manager.model.CohortSpec("left", "root", java.util.List.of(), 1.0))
                            .cohort(new dev.berth.manager.model.CohortSpec("right", "root", java.util.List.of(), 1.0))
                            .cq(clusterQueue("a").cohort("left").group(flavor("default", quota("cpu", "0"))))
                            .cq(clusterQueue("a-lender").cohort("left").group(flavor("default", quota("cpu", "2"))))
                            .cq(clusterQueue("b").cohort("right").group(flavor("default", quota("cpu", "0"))));
                    s.submit(s.w("b", "far").priority(100).request("cpu", "2"));
                    s.submit(s.w("a", "near").priority(0).request("cpu", "2"));
                    s.schedule();
                    assertThat(s.admitted("a/near")).isTrue();
                    assertThat(s.reserved("b/far")).isFalse();
                }),
                row("higher priority is admitted first, even if created later", s -> {
                    single(s, QueueingStrategy.BEST_EFFORT_FIFO);
                    s.submit(s.w("team", "low").priority(0).request("cpu", "4"));
                    s.submit(s.w("team", "high").priority(5).request("cpu", "4"));
                    s.schedule();
                    assertThat(s.admitted("team/high")).isTrue();
                    assertThat(s.reserved("team/low")).isFalse();
                    assertThat(s.controller.pendingIn("team")).containsExactly(Scenario.key("team/low"));
                }),
                row("with equal priority the older workload is admitted first", s -> {
                    single(s, QueueingStrategy.BEST_EFFORT_FIFO);
                    s.submit(s.w("team", "newer").createdAt(200).request("cpu", "4"));
                    s.submit(s.w("team", "older").createdAt(100).request("cpu", "4"));
                    s.schedule();
                    assertThat(s.admitted("team/older")).isTrue();
                    assertThat(s.reserved("team/newer")).isFalse();
                }),
                row("StrictFIFO: an inadmissible head blocks smaller workloads behind it", s -> {
                    single(s, QueueingStrategy.STRICT_FIFO);
                    s.run(s.w("team", "running").request("cpu", "3"));
                    s.submit(s.w("team", "big").request("cpu", "2"));
                    s.submit(s.w("team", "small").request("cpu", "1"));
                    s.schedule();
                    assertThat(s.reserved("team/big")).isFalse();
                    assertThat(s.reserved("team/small")).isFalse();
                    assertThat(s.queueStatus("team").pendingWorkloads()).isEqualTo(2);
                }),
                row("StrictFIFO: the head goes first once capacity frees", s -> {
                    single(s, QueueingStrategy.STRICT_FIFO);
                    s.run(s.w("team", "running").request("cpu", "3"));
                    s.submit(s.w("team", "big").request("cpu", "2"));
                    s.submit(s.w("team", "small").request("cpu", "1"));
                    s.schedule();
                    s.finish("team/running").schedule();
                    assertThat(s.admitted("team/big")).isTrue();
                    assertThat(s.admitted("team/small")).isTrue();
                }),
                row("BestEffortFIFO: a smaller later workload gets past an inadmissible head", s -> {
                    single(s, QueueingStrategy.BEST_EFFORT_FIFO);
                    s.run(s.w("team", "running").request("cpu", "3"));
                    s.submit(s.w("team", "big").request("cpu", "2"));
                    s.submit(s.w("team", "small").request("cpu", "1"));
                    s.schedule();
                    assertThat(s.reserved("team/big")).isFalse();
                    assertThat(s.admitted("team/small")).isTrue();
                }),
                row("an inadmissible workload is requeued and admitted when a workload in its cohort finishes", s -> {
                    cohortOfTwo(s);
                    s.run(s.w("team-b", "borrower").request("cpu", "4"));
                    s.run(s.w("team-a", "waiting").request("cpu", "2"));
                    assertThat(s.reserved("team-a/waiting")).isFalse();
                    s.finish("team-b/borrower");
                    CycleReport report = s.schedule();
                    assertThat(report.nominated()).isPositive();
                    assertThat(s.admitted("team-a/waiting")).isTrue();
                }),
                row("an inadmissible workload is not re-evaluated when an unrelated cohort frees capacity", s -> {
                    cohortOfTwo(s);
                    s.cq(clusterQueue("elsewhere").cohort("other").group(flavor("default", quota("cpu", "4"))));
                    s.run(s.w("team-b", "borrower").request("cpu", "4"));
                    s.run(s.w("team-a", "waiting").request("cpu", "2"));
                    s.run(s.w("elsewhere", "unrelated").request("cpu", "1"));
                    int writes = s.sink.workloadWrites;
                    s.finish("elsewhere/unrelated");
                    CycleReport report = s.schedule();
                    assertThat(report.nominated()).isZero();
                    assertThat(s.sink.workloadWrites).isEqualTo(writes + 1);
                    assertThat(s.reserved("team-a/waiting")).isFalse();
                }),
                row("an inadmissible workload is not re-evaluated when nothing changed", s -> {
                    single(s, QueueingStrategy.BEST_EFFORT_FIFO);
                    s.run(s.w("team", "running").request("cpu", "4"));
                    s.run(s.w("team", "waiting").request("cpu", "1"));
                    assertThat(s.schedule().nominated()).isZero();
                }));
    }

    private static void single(Scenario s, QueueingStrategy strategy) {
        s.flavors("default").cq(clusterQueue("team").strategy(strategy).group(flavor("default", quota("cpu", "4"))));
    }

    /** team-a and team-b with 2 cpu each in one cohort. */
    private static void cohortOfTwo(Scenario s) {
        s.flavors("default")
                .cq(clusterQueue("team-a").cohort("pool").group(flavor("default", quota("cpu", "2"))))
                .cq(clusterQueue("team-b").cohort("pool").group(flavor("default", quota("cpu", "2"))));
    }
}
