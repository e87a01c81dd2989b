package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.clusters.FakeWorkerCluster.Call;
import dev.berth.manager.controller.DispatchScenario.Row;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.events.EventRecorder;
import dev.berth.manager.store.StoredObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md's rules on old attempts that the other tables did not cover: a drain's edge cases (a reservation among
 * several, an expiry that fails, an unreachable drained cluster), the bounds of the pod fence after a lost agent (the
 * bounded wait, the partition path, a new leader), and the ClusterLost record. Decided by FailoverDecision and
 * FenceDecision, run by ClusterFailover and OldAttemptFences over the fake clusters.
 */
class DispatchScenarioOldAttemptsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void oldAttemptsNeverRunNextToNewOnes(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("Operator actions: drain", "a drained cluster's reservation among several, with no winner yet, is deleted; the others go on", s -> {
                    s.strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2);
                    assertThat(s.holding("job-1")).containsExactly("a", "b");
                    s.mark("a", true, true);
                    assertThat(s.verbs("a", "job-1")).as("deleted, not expired").containsExactly("create", "delete");
                    assertThat(s.attempt("job-1").clusters()).containsExactly("b");
                    s.report("b", "job-1", "Reserved").advance(Duration.ofSeconds(2));
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertThat(s.cluster("b").reservationOf(s.workload("job-1"))).as("committed").isFalse();
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.condition("job-1", "Evicted")).isNull();
                }),
                row("Operator actions: drain", "an expiry that does not reach the cluster is sent again at the next poll, then no more", s -> {
                    s.clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(2));
                    s.cluster("a").renewalsFail(true);
                    s.mark("a", true, true);
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).as("not expired yet").isEqualTo("2026-12-02T00:00:00Z");
                    s.advance(Duration.ofSeconds(1));
                    assertThat(s.verbs("a", "job-1")).containsExactly("create", "renew", "renew");
                    s.cluster("a").renewalsFail(false);
                    s.advance(Duration.ofSeconds(1));
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isLessThan("2026-12-02T00:00:00Z");
                    s.advance(Duration.ofSeconds(25));
                    assertThat(s.verbs("a", "job-1")).as("an expired lease is never renewed").containsExactly("create", "renew", "renew", "renew");
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                }),
                row("Operator actions: drain", "a drained cluster that is unreachable falls back to the workerLostTimeout path", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    Instant cut = s.clock.instant();
                    s.cluster("a").partitioned(true);
                    s.mark("a", true, true).advance(Duration.ofSeconds(30));
                    assertThat(s.history("job-1")).anySatisfy(h -> assertThat(h.outcome()).isEqualTo("ClusterLost"));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    Instant lastStamp = lastStampBefore(s, "a", "job-1", cut);
                    assertThat(createsOn(s, "b", "job-1")).allSatisfy(c -> assertThat(c.at()).isAfterOrEqualTo(lastStamp.plusSeconds(6 + 1)));
                }),
                row("A dead or frozen agent: the manager fences its pods", "the wait is bounded: workerLostTimeout after the fence, the workload goes anyway, with a Warning", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(18));
                    DispatchHold hold = s.holds("job-1").get(0);
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.advance(Duration.ofSeconds(12));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(createsOn(s, "b", "job-1")).allSatisfy(c -> assertThat(c.at()).isAfterOrEqualTo(hold.since().plusSeconds(10)));
                    assertThat(clusterEvents(s, "a", "PodStopWaitExceeded")).singleElement()
                            .satisfies(e -> assertThat(e.path("type").asText()).isEqualTo("Warning"));
                }),
                row("A dead or frozen agent: the manager fences its pods",
                        "when the API stops answering too, the lease alone never lets it go (no agent stops the copy): it waits out maxWait", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(18));
                    DispatchHold hold = s.holds("job-1").get(0);
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(4));
                    assertThat(s.createdOn("job-1")).as("Unreachable, the old lease run out, and still held").containsExactly("a");
                    s.advance(Duration.ofSeconds(6));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(createsOn(s, "b", "job-1")).allSatisfy(c -> assertThat(c.at()).isAfterOrEqualTo(hold.since().plusSeconds(10)));
                    assertThat(clusterEvents(s, "a", "OldAttemptLeaseExpired")).isEmpty();
                    assertThat(clusterEvents(s, "a", "PodStopWaitExceeded")).hasSize(1);
                }),
                row("A dead or frozen agent: the manager fences its pods", "a new leader holds the workload again while the old pods run, and lets it go once they stop", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(18));
                    assertThat(s.holds("job-1")).hasSize(1);
                    s.newLeader().advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).as("held again by the stored fence").containsExactly("a");
                    assertThat(s.checkMessage("job-1")).contains("waiting for the old attempt");
                    s.cluster("a").livePods(s.workload("job-1"), 0);
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.holds("job-1")).isEmpty();
                }),
                row("A dead or frozen agent: the manager fences its pods",
                        "a new leader that never saw the agent lost still does not let the lease alone lift the fence", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").agentAlive(false).livePods(s.workload("job-1"), 1);
                    s.advance(Duration.ofSeconds(18));
                    DispatchHold hold = s.holds("job-1").get(0);
                    assertThat(hold.agentLost()).isTrue();
                    s.cluster("a").partitioned(true);
                    s.newLeader().advance(Duration.ofSeconds(4));
                    assertThat(s.createdOn("job-1")).as("Unreachable and the old lease run out: still held by the stored fence")
                            .containsExactly("a");
                    s.advance(Duration.ofSeconds(6));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(createsOn(s, "b", "job-1")).allSatisfy(c -> assertThat(c.at()).isAfterOrEqualTo(hold.since().plusSeconds(10)));
                }),
                row("Operator actions: a lost cluster is recorded", "a Warning ClusterLost, once per loss however long it lasts", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(3));
                    s.cluster("a").partitioned(true);
                    s.advance(Duration.ofSeconds(30));
                    assertThat(clusterEvents(s, "a", "ClusterLost")).singleElement().satisfies(e -> {
                        assertThat(e.path("type").asText()).isEqualTo("Warning");
                        assertThat(e.path("count").asInt()).isEqualTo(1);
                    });
                })
        );
    }

    /** The events recorded about the MultiKueueCluster with this reason (cluster-scoped: namespace default). */
    static List<JsonNode> clusterEvents(DispatchScenario s, String cluster, String reason) {
        return s.store.list(EventRecorder.RESOURCE, null).stream().map(StoredObject::object)
                .filter(e -> cluster.equals(e.path("involvedObject").path("name").asText()) && reason.equals(e.path("reason").asText()))
                .map(JsonNode.class::cast).toList();
    }

    private static List<Call> createsOn(DispatchScenario s, String cluster, String job) {
        String workload = s.workload(job);
        return s.cluster(cluster).calls().stream().filter(c -> c.verb().equals("create") && c.workload().equals(workload)).toList();
    }

    /** The last lease stamp (create or renew) sent to the cluster before {@code before}. */
    private static Instant lastStampBefore(DispatchScenario s, String cluster, String job, Instant before) {
        String workload = s.workload(job);
        return s.cluster(cluster).calls().stream()
                .filter(c -> c.workload().equals(workload) && (c.verb().equals("create") || c.verb().equals("renew")) && !c.at().isAfter(before))
                .map(Call::at).max(Instant::compareTo).orElseThrow();
    }
}
