package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.clusters.FakeWorkerCluster;
import dev.berth.manager.controller.DispatchScenario.Row;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md, "Multi-cluster strategies: only a committed copy ever starts": AllAtOnce, Incremental and
 * External reserve on several clusters, commit exactly one, withdraw the others, across a partition and a new leader.
 * Checked against reverted rules (2026-12-02): with a refused commit (409) treated as unanswered both 409 rows fail;
 * without the withdrawal of de-nominated clusters (External) the narrowed and cleared rows fail.
 */
class DispatchScenarioStrategiesTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void commitsExactlyOne(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("Multi-cluster strategies: Reserve, Commit, Withdraw", "AllAtOnce reserves everywhere, commits the first Reserved, deletes the rest", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.cluster("a").reservationOf(s.workload("job-1"))).isTrue();
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).isTrue();
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).isFalse();
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertExactlyOneCommit(s, "job-1", "b");
                }),
                row("Multi-cluster strategies: Commit", "two reservations seen in one listing round: config order breaks the tie, one commit", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2).report("b", "job-1", "Reserved").report("a", "job-1", "Reserved").advance(Duration.ofSeconds(3));
                    assertExactlyOneCommit(s, "job-1", s.dispatch("job-1").cluster());
                    assertThat(s.holding("job-1")).containsExactly(s.dispatch("job-1").cluster());
                }),
                row("Multi-cluster strategies: Incremental", "step 1: one cluster at first, the next one a round later, still reservations", s -> {
                    s.options(o -> o.withPlacement(o.placement().withIncrementalStep(1))).strategy("Incremental").clusters("a", "b", "c").start();
                    s.submit("job-1", 2).advance(Duration.ofMinutes(4));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.advance(Duration.ofMinutes(1).plusSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).isTrue();
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.holding("job-1")).containsExactly("b");
                }),
                row("Multi-cluster strategies: partition between reservation and commit (drill 8)",
                        "a reservation behind a cut is never committed; the reachable one is, and the cut copy is deleted once it is back", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    s.cluster("a").partitioned(true);
                    s.report("a", "job-1", "Reserved").report("b", "job-1", "Reserved").advance(Duration.ofSeconds(3));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.cluster("a").reservationOf(s.workload("job-1"))).as("behind the cut, still a reservation").isTrue();
                    s.cluster("a").partitioned(false);
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertExactlyOneCommit(s, "job-1", "b");
                }),
                row("Multi-cluster strategies: when the manager dies in between",
                        "a new leader keeps the recorded cluster's reservation, deletes the other copy, and commits under its own epoch", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    assertThat(s.dispatch("job-1").cluster()).as("the record names the first cluster").isEqualTo("a");
                    s.newLeader();
                    assertThat(s.holding("job-1")).as("b's copy is not the recorded attempt's").containsExactly("a");
                    s.report("a", "job-1", "Reserved").advance(Duration.ofSeconds(3));
                    assertExactlyOneCommit(s, "job-1", "a");
                    assertThat(s.cluster("a").epochOf(s.workload("job-1"))).isEqualTo(s.manager.epoch);
                    assertThat(s.verbs("b", "job-1")).containsExactly("create", "delete");
                }),
                row("Multi-cluster strategies: when the manager dies in between", "a copy the dead leader committed is adopted, never committed elsewhere", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2).report("b", "job-1", "Reserved").advance(Duration.ofSeconds(1)).report("b", "job-1", "Running");
                    s.newLeader().report("b", "job-1", "Running").advance(Duration.ofSeconds(3));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                }),
                row("Multi-cluster strategies: Commit (a refused patch)",
                        "a commit refused with 409 drops that cluster; the next Reserved copy wins, still one commit in all", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    s.cluster("a").commitsSuperseded(true);
                    s.report("a", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertThat(s.verbs("a", "job-1")).as("the commit went to the first Reserved copy").containsSubsequence("create", "commit");
                    assertThat(s.cluster("b").verbs(s.workload("job-1"))).doesNotContain("commit");
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(2));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.verbs("a", "job-1").stream().filter("commit"::equals)).as("never sent again to a").hasSize(1);
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).isFalse();
                    s.report("b", "job-1", "Running").advance(Duration.ofSeconds(2));
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                    assertThat(s.holding("job-1")).as("a's superseded reservation is withdrawn too").containsExactly("b");
                    assertExactlyOneCommit(s, "job-1", "b");
                }),
                row("Multi-cluster strategies: Commit (a refused patch)",
                        "both reserved, the first's commit refused with 409: the other, already Reserved, is committed without a new report", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    s.cluster("a").commitsSuperseded(true);
                    s.report("a", "job-1", "Reserved").report("b", "job-1", "Reserved").advance(Duration.ofSeconds(3));
                    assertThat(s.verbs("a", "job-1")).contains("commit");
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                }),
                row("Multi-cluster strategies: External (status.nominatedClusterNames)",
                        "nothing is created before a nomination; then copies are reserved only on the nominated clusters", s -> {
                    s.strategy("External").clusters("a", "b", "c").start();
                    s.submit("job-1", 2).advance(Duration.ofSeconds(30));
                    assertThat(s.createdOn("job-1")).isEmpty();
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    s.nominate("job-1", "b", "c").advance(Duration.ofSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("b", "c");
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).isTrue();
                    assertThat(s.cluster("c").reservationOf(s.workload("job-1"))).isTrue();
                    assertThat(s.verbs("a", "job-1")).isEmpty();
                    s.report("c", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertExactlyOneCommit(s, "job-1", "c");
                    assertThat(s.holding("job-1")).containsExactly("c");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("c");
                }),
                row("Multi-cluster strategies: External (status.nominatedClusterNames)",
                        "a nomination widened later adds a reservation on the new cluster; still one commit", s -> {
                    s.strategy("External").clusters("a", "b", "c").start();
                    s.submit("job-1", 2).nominate("job-1", "a").advance(Duration.ofSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.nominate("job-1", "a", "c").advance(Duration.ofSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "c");
                    assertThat(s.cluster("c").attemptOf(s.workload("job-1"))).isEqualTo(s.cluster("a").attemptOf(s.workload("job-1")));
                    assertThat(s.cluster("c").reservationOf(s.workload("job-1"))).isTrue();
                    s.report("c", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertExactlyOneCommit(s, "job-1", "c");
                    assertThat(s.holding("job-1")).containsExactly("c");
                    assertThat(s.verbs("b", "job-1")).isEmpty();
                }),
                row("Multi-cluster strategies: External (status.nominatedClusterNames)",
                        "a cluster removed from the nomination has its reservation withdrawn; the remaining one is committed", s -> {
                    s.strategy("External").clusters("a", "b").start();
                    s.submit("job-1", 2).nominate("job-1", "a", "b").advance(Duration.ofSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    s.nominate("job-1", "b").advance(Duration.ofSeconds(21));
                    assertThat(s.verbs("a", "job-1")).as("withdrawn at the next round (renewals first, as BerthManager's lease timer runs them)")
                            .containsExactly("create", "renew", "renew", "delete");
                    assertThat(s.holding("job-1")).containsExactly("b");
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.createdOn("job-1")).as("a is never placed again").containsExactly("a", "b");
                }),
                row("Multi-cluster strategies: External (status.nominatedClusterNames)",
                        "a nomination cleared withdraws every reservation and the workload waits; a new nomination places a new attempt", s -> {
                    s.strategy("External").clusters("a", "b").start();
                    s.submit("job-1", 2).nominate("job-1", "a").advance(Duration.ofSeconds(21));
                    String first = s.cluster("a").attemptOf(s.workload("job-1"));
                    s.nominate("job-1").advance(Duration.ofSeconds(21));
                    assertThat(s.holding("job-1")).isEmpty();
                    assertThat(s.verbs("a", "job-1")).endsWith("delete").doesNotContain("commit");
                    assertThat(s.dispatch("job-1")).isNull();
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                    s.nominate("job-1", "b").advance(Duration.ofSeconds(21));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.cluster("b").attemptOf(s.workload("job-1"))).isNotEqualTo(first);
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(1));
                    assertExactlyOneCommit(s, "job-1", "b");
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(s.cluster("b").attemptOf(s.workload("job-1")));
                })
        );
    }

    /**
     * The invariant: exactly one commit of the workload in all, to the winner; no other copy ever leaves its reservation.
     * A commit the cluster refused (409, 404) changed nothing there and does not count; one unanswered does.
     */
    static void assertExactlyOneCommit(DispatchScenario s, String job, String winner) {
        String workload = s.workload(job);
        for (String name : List.of("a", "b", "c")) {
            FakeWorkerCluster cluster = s.cluster(name);
            if (cluster == null) continue;
            long commits = cluster.commitsNotRefused(workload);
            assertThat(commits).as("commits to " + name).isEqualTo(name.equals(winner) ? 1 : 0);
            if (!name.equals(winner) && cluster.holds(workload)) assertThat(cluster.reservationOf(workload)).as(name).isTrue();
        }
    }
}
