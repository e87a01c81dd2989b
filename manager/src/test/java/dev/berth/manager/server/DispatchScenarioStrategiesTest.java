package dev.berth.manager.server;

import static dev.berth.manager.server.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.clusters.FakeWorkerCluster;
import dev.berth.manager.server.DispatchScenario.Row;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md, "Multi-cluster strategies: only a committed copy ever starts": AllAtOnce, Incremental and
 * External reserve on several clusters, commit exactly one, withdraw the others, across a partition and a new leader.
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
                })
        );
    }

    /** The invariant: exactly one commit of the workload in all, to the winner; no other copy ever leaves its reservation. */
    static void assertExactlyOneCommit(DispatchScenario s, String job, String winner) {
        String workload = s.workload(job);
        for (String name : List.of("a", "b", "c")) {
            FakeWorkerCluster cluster = s.cluster(name);
            if (cluster == null) continue;
            long commits = cluster.verbs(workload).stream().filter("commit"::equals).count();
            assertThat(commits).as("commits to " + name).isEqualTo(name.equals(winner) ? 1 : 0);
            if (!name.equals(winner) && cluster.holds(workload)) assertThat(cluster.reservationOf(workload)).as(name).isTrue();
        }
    }
}
