package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.clusters.FakeWorkerCluster.Call;
import dev.berth.manager.dispatch.BreakerState;
import dev.berth.manager.controller.DispatchScenario.Row;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md, "Leases and fencing: never two live copies" and "workerLostTimeout": leases, lost clusters,
 * fenced old attempts, returning clusters and the operator's drain, over the manager's real dispatch logic; and
 * "Cluster health": a cluster whose circuit breaker is open gets no copy (checked against PlacementPolicy without its
 * BreakerOpen rejection: the single-cluster row fails, health alone says only "Unreachable").
 * Checked against a reverted fix (2026-12-02): without drill 1's pod fence (then ClusterFailover.evict's fenceOldPods) the
 * dead-agent row fails; again on 2026-12-03 with FailoverDecision emitting no FenceOldPods.
 */
class DispatchScenarioFailoverTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void neverTwoLiveCopies(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("Leases and fencing", "every current attempt's lease is renewed every lease/3, under the manager's epoch", s -> {
                    s.clusters("a").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(21));
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isEqualTo("2026-12-02T00:00:20Z");
                    assertThat(s.cluster("a").epochOf(s.workload("job-1"))).isEqualTo(s.manager.epoch);
                }),
                row("Leases and fencing: a renewal that fails", "is renewed again at the next poll, not a whole interval later", s -> {
                    s.clusters("a").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running");
                    s.cluster("a").renewalsFail(true);
                    s.advance(Duration.ofSeconds(20));
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew");
                    s.advance(Duration.ofSeconds(1));
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew", "renew");
                    s.cluster("a").renewalsFail(false);
                    s.advance(Duration.ofSeconds(1));
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isEqualTo("2026-12-02T00:00:22Z");
                    s.advance(Duration.ofSeconds(5));
                    assertThat(s.verbs("a", "job-1")).as("a renewal that succeeded is not retried").containsExactly("create", "renew", "renew", "renew");
                }),
                row("workerLostTimeout", "a cluster cut off is failed over only once the old copy's lease has surely run out", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    String first = s.dispatch("job-1").attemptId();
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(30));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertNoCreateElsewhereWhileTheOldLeaseRuns(s, "job-1", "a", Duration.ofSeconds(6 + 1));
                    assertThat(s.history("job-1")).anySatisfy(h -> {
                        assertThat(h.attemptId()).isEqualTo(first);
                        assertThat(h.outcome()).isEqualTo("ClusterLost");
                    });
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    assertThat(s.dispatch("job-1").attemptId()).isNotEqualTo(first);
                }),
                row("A returning cluster", "the retired attempt's copy is deleted there and never mirrored", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(30)).report("b", "job-1", "Running").advance(Duration.ofSeconds(1));
                    s.cluster("a").partitioned(false);
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.cluster("a").holds(s.workload("job-1"))).isFalse();
                    assertThat(s.verbs("a", "job-1")).contains("delete");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                }),
                row("A dead or frozen agent: the manager fences its pods (drill 1)",
                        "the workload is redispatched only after two listings found none of the old pods running", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(18)); // lost after 4 s, evicted workerLostTimeout (10 s) later; the wait is bounded 10 s more
                    assertThat(s.verbs("a", "job-1")).contains("fence");
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.holds("job-1")).singleElement().satisfies(h -> assertThat(h.unconfirmedCreate()).isFalse());
                    assertThat(s.checkMessage("job-1")).contains("waiting for the old attempt");
                    s.cluster("a").livePods(s.workload("job-1"), 0);
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.holds("job-1")).isEmpty();
                }),
                row("A dead or frozen agent: the manager fences its pods (drill 1, seen in CI on 43a4691)",
                        "an agent seen lost whose cluster then stops answering still fences its pods: no partition path", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(6)); // the agent is lost after 4 s; its API still answers
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(12)); // evicted while Unreachable, 10 s after the loss began
                    assertThat(s.createdOn("job-1")).as("the dead agent cannot stop its copy: no redispatch on the lease alone")
                            .containsExactly("a");
                    assertThat(s.holds("job-1")).singleElement().satisfies(h -> assertThat(h.unconfirmedCreate()).isFalse());
                    s.cluster("a").partitioned(false).livePods(s.workload("job-1"), 0);
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.verbs("a", "job-1")).contains("fence");
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.holds("job-1")).isEmpty();
                }),
                row("Operator actions: drain", "the copy's lease is expired on purpose; the new copy is created only after the old one reports Stopped", s -> {
                    s.clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(2));
                    s.mark("a", true, true);
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isLessThan("2026-12-02T00:00:00Z");
                    s.advance(Duration.ofSeconds(5));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.history("job-1")).first().satisfies(h -> assertThat(h.outcome()).isEqualTo("Stopped"));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                }),
                row("Leader election and fencing", "a new leader re-adopts a running attempt, stamps its epoch at its first listing, and creates nothing", s -> {
                    s.clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(2));
                    String attempt = s.dispatch("job-1").attemptId();
                    long oldEpoch = s.manager.epoch;
                    s.newLeader().advance(Duration.ofSeconds(2));
                    assertThat(s.manager.epoch).isGreaterThan(oldEpoch);
                    assertThat(s.cluster("a").epochOf(s.workload("job-1"))).isEqualTo(s.manager.epoch);
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.verbs("a", "job-1")).doesNotContain("delete");
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(attempt);
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                }),
                row("Cluster health: Unreachable (breaker open) is skipped by placement", "a cluster whose breaker is open gets no copy; the next one does", s -> {
                    s.clusters("a", "b").start();
                    s.cluster("a").breaker(BreakerState.OPEN);
                    s.advance(Duration.ofSeconds(1)).submit("job-1", 2).advance(Duration.ofSeconds(1));
                    assertThat(s.createdOn("job-1")).containsExactly("b");
                    assertThat(s.verbs("a", "job-1")).isEmpty();
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    s.cluster("a").breaker(BreakerState.CLOSED);
                    s.report("b", "job-1", "Running").advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).as("a closed breaker moves nothing back").containsExactly("b");
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                }),
                row("Cluster health: Unreachable (breaker open) is skipped by placement", "with the only cluster's breaker open the workload waits, then goes there once it closes", s -> {
                    s.clusters("a").start();
                    s.cluster("a").breaker(BreakerState.OPEN);
                    s.advance(Duration.ofSeconds(1)).submit("job-1", 2).advance(Duration.ofSeconds(5));
                    assertThat(s.createdOn("job-1")).isEmpty();
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    assertThat(s.checkMessage("job-1")).contains("circuit breaker open");
                    assertThat(s.dispatch("job-1")).isNull();
                    s.cluster("a").breaker(BreakerState.CLOSED);
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("a");
                })
        );
    }

    /** The invariant: no create of the workload reaches another cluster before the lost copy's last lease stamp + lease + margin. */
    static void assertNoCreateElsewhereWhileTheOldLeaseRuns(DispatchScenario s, String job, String lost, Duration leaseAndMargin) {
        String workload = s.workload(job);
        List<Call> stamps = s.cluster(lost).calls().stream()
                .filter(c -> c.workload().equals(workload) && (c.verb().equals("create") || c.verb().equals("renew"))).toList();
        Instant lastStamp = stamps.get(stamps.size() - 1).at();
        for (String other : List.of("a", "b")) {
            if (other.equals(lost) || s.cluster(other) == null) continue;
            s.cluster(other).calls().stream().filter(c -> c.verb().equals("create") && c.workload().equals(workload))
                    .forEach(c -> assertThat(c.at()).as("create on " + other).isAfterOrEqualTo(lastStamp.plus(leaseAndMargin)));
        }
    }
}
