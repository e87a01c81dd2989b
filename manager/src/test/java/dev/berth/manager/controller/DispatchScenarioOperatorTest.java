package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.controller.DispatchScenario.Row;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** docs/failover.md's operator marks (cordon, uncordon) and the tolerance of short blips, one row per rule. */
class DispatchScenarioOperatorTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void holds(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("Operator actions: cordon", "placement skips the cordoned cluster; the copy running there stays", s -> {
                    s.clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(2));
                    s.mark("a", true, false);
                    s.submit("job-2", 2).advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-2")).containsExactly("b");
                    assertThat(s.cluster("a").holds(s.workload("job-1"))).isTrue();
                    assertThat(s.verbs("a", "job-1")).doesNotContain("delete");
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("a");
                }),
                row("Operator actions: uncordon", "a workload waiting only for the cordoned cluster goes there once it is uncordoned", s -> {
                    s.clusters("a").start();
                    s.mark("a", true, false);
                    s.submit("job-1", 2).advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).isEmpty();
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    assertThat(s.checkMessage("job-1")).containsIgnoringCase("cordon");
                    s.mark("a", false, false).advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                }),
                row("Cluster health: transient blips evict nothing", "a cut shorter than detection keeps the attempt, its lease and its cluster", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    String attempt = s.dispatch("job-1").attemptId();
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(2));
                    s.cluster("a").partitioned(false);
                    s.advance(Duration.ofSeconds(6));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(attempt);
                    assertThat(s.history("job-1")).noneSatisfy(h -> assertThat(h.outcome()).isEqualTo("ClusterLost"));
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).as("renewed after the blip")
                            .isGreaterThan("2026-12-02T00:00:06Z");
                }),
                row("Renewal on a lost cluster", "stops once lostSince + workerLostTimeout - lease - margin is no longer ahead", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false); // the API still answers: only the agent's heartbeat stops
                    long renewalsAtDeath = s.verbs("a", "job-1").stream().filter("renew"::equals).count();
                    s.advance(Duration.ofSeconds(4 + 3 + 1)); // lost after 4 s; renewals may go on for 10 - 6 - 1 = 3 s more
                    long renewalsThen = s.verbs("a", "job-1").stream().filter("renew"::equals).count();
                    assertThat(renewalsThen).as("renewed while lost for less than the window").isGreaterThan(renewalsAtDeath);
                    s.advance(Duration.ofSeconds(4)); // still before the eviction (lost + 10 s)
                    assertThat(s.verbs("a", "job-1").stream().filter("renew"::equals).count())
                            .as("no renewal once the window closed").isEqualTo(renewalsThen);
                    assertThat(s.createdOn("job-1")).as("not failed over yet").containsExactly("a");
                }),
                row("Longer leases by annotation", "the copy carries the longer lease, and is not replaced while it may still run", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submitWithLease("job-1", 2, "PT2M").report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    assertThat(s.cluster("a").leaseSecondsOf(s.workload("job-1"))).isEqualTo(120);
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(60)); // far past workerLostTimeout (10 s), within the 2 min lease
                    assertThat(s.createdOn("job-1")).as("no second copy while the first may run").containsExactly("a");
                    s.advance(Duration.ofSeconds(70)); // last renewal + 120 s + margin has passed
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                })
        );
    }
}
