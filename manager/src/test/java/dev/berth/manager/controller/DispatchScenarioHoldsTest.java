package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.clusters.FakeWorkerCluster.Creates;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import dev.berth.manager.controller.DispatchScenario.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md's holds: a create never acknowledged, write-ahead dispatch, an attempt missing from listings, a dead
 * leader's unconfirmed dispatch, and issue 20's rules 1, 2 and 4 (start timeout, unserved flavor, evicted copy stops).
 * Checked against reverted fixes (2026-12-02): without drill 4b's hold of an unanswered create the 503 and drill 4b
 * rows fail; without write-ahead dispatch (order and durability gate of 2ef7c38) the write-ahead row fails; without
 * the refused-create backoff (40e0c5a) the refused-create row never settles; with StartTimeoutWithdrawals blind to
 * unschedulable pods the drill 10 row fails (the admitted copy is renewed, never withdrawn).
 */
class DispatchScenarioHoldsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void holdsUntilSafe(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("A create the cluster never acknowledged", "a 503 holds the workload until the lease it carried has run out (70 s)", s -> {
                    s.clusters("a", "b").start();
                    s.cluster("a").creates(Creates.SERVER_ERROR);
                    s.submit("job-1", 2);
                    s.cluster("a").creates(Creates.ANSWERED);
                    assertThat(s.holds("job-1")).singleElement().satisfies(h -> assertThat(h.unconfirmedCreate()).isTrue());
                    assertThat(s.checkMessage("job-1")).contains("was never confirmed and may still arrive there");
                    s.advance(Duration.ofSeconds(69));
                    assertThat(s.createdOn("job-1")).hasSize(1);
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).hasSize(2);
                    assertThat(s.holds("job-1")).isEmpty();
                }),
                row("Every call is guarded: create", "a refused create (4xx) proves nothing landed: no hold, placed again after a growing backoff", s -> {
                    s.clusters("a").start();
                    s.cluster("a").creates(Creates.REFUSED);
                    s.submit("job-1", 2).advance(Duration.ofSeconds(30));
                    assertThat(s.holds("job-1")).isEmpty();
                    assertThat(s.createdOn("job-1")).as("retried, backing off (before: one create per answer, for ever)").hasSizeBetween(3, 10);
                    s.cluster("a").creates(Creates.ANSWERED);
                    s.advance(Duration.ofSeconds(31));
                    assertThat(s.holding("job-1")).containsExactly("a");
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(s.cluster("a").attemptOf(s.workload("job-1")));
                }),
                row("Open items: drill 4b's double run", "a create that timed out but landed later is never run next to a new copy", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.cluster("a").creates(Creates.TIMES_OUT_BUT_LANDS);
                    s.submit("job-1", 2);
                    s.cluster("a").creates(Creates.ANSWERED);
                    assertThat(s.createdOn("job-1")).as("no second copy while the first may still start").containsExactly("a");
                    s.advance(Duration.ofSeconds(6));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.verbs("a", "job-1")).as("the landed copy is deleted as stale").contains("delete");
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).hasSize(2);
                    assertThat(s.holding("job-1")).hasSize(1);
                }),
                row("Write-ahead dispatch (drill 5)", "an attempt is recorded in status.dispatch before any worker hears of it", s -> {
                    s.clusters("a").start();
                    List<String> seenAtCreate = new ArrayList<>();
                    s.cluster("a").onCall(call -> {
                        if (call.verb().equals("create")) {
                            var recorded = s.dispatch("job-1");
                            seenAtCreate.add(recorded == null ? "nothing" : recorded.attemptId());
                        }
                    });
                    s.submit("job-1", 2);
                    assertThat(seenAtCreate).containsExactly(s.cluster("a").attemptOf(s.workload("job-1")));
                }),
                row("Open items: drill 5's attempt that existed nowhere", "missing from two listings: dispatched again once its lease ran out", s -> {
                    s.drillSettings().clusters("a", "b").start();
                    s.cluster("a").creates(Creates.HELD);
                    s.submit("job-1", 2);
                    String first = s.dispatch("job-1").attemptId();
                    // the leader that recorded it died before its create arrived; one still waiting for its own create's
                    // answer does not count listings against it (SlowCreateListingTest), the call's time limit answers it
                    s.newLeader();
                    s.cluster("a").creates(Creates.ANSWERED);
                    s.advance(Duration.ofSeconds(6));
                    assertThat(s.createdOn("job-1")).hasSize(1);
                    assertThat(s.holds("job-1")).singleElement().satisfies(h -> assertThat(h.attemptId()).isEqualTo(first));
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).hasSize(2);
                    assertThat(s.dispatch("job-1").attemptId()).isNotEqualTo(first);
                }),
                row("A create still unanswered (issue 16)", "listings made before the cluster answers it do not count against the attempt", s -> {
                    s.clusters("a", "b").start();
                    s.cluster("a").creates(Creates.HELD);
                    s.submit("job-1", 2);
                    String first = s.dispatch("job-1").attemptId();
                    s.advance(Duration.ofMillis(4_500)); // past the report lag, within the create's 5 s call timeout
                    assertThat(s.holds("job-1")).isEmpty();
                    s.cluster("a").deliverHeldCreates();
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(first);
                    assertThat(s.createdOn("job-1")).hasSize(1);
                    assertThat(s.holds("job-1")).isEmpty();
                }),
                row("A dead leader's unconfirmed dispatch", "released as soon as the agent's Lease shows the new epoch, not after lease + margin", s -> {
                    s.clusters("a", "b").start();
                    s.cluster("a").creates(Creates.HELD);
                    s.submit("job-1", 2);
                    s.newLeader();
                    s.cluster("a").creates(Creates.ANSWERED).agentEpoch(s.manager.epoch);
                    s.advance(Duration.ofSeconds(15));
                    assertThat(s.createdOn("job-1")).hasSize(2);
                    assertThat(s.holding("job-1")).hasSize(1);
                }),
                row("A dead leader's unconfirmed dispatch", "still held while the agent's Lease shows only the dead leader's epoch", s -> {
                    s.clusters("a", "b").start();
                    s.cluster("a").creates(Creates.HELD);
                    s.submit("job-1", 2);
                    long deadEpoch = s.manager.epoch;
                    s.newLeader();
                    s.cluster("a").creates(Creates.ANSWERED).agentEpoch(deadEpoch);
                    s.advance(Duration.ofSeconds(30));
                    assertThat(s.createdOn("job-1")).hasSize(1);
                    assertThat(s.holds("job-1")).singleElement().satisfies(h -> assertThat(h.unconfirmedCreate()).isTrue());
                }),
                row("Unstarted attempts are withdrawn (issue 20 rule 1)", "a copy Pending past the start timeout is fenced, confirmed Stopped, then placed elsewhere", s -> {
                    s.options(o -> o.withStartTimeout(new StartTimeoutOptions(Duration.ofSeconds(30), Duration.ofMinutes(10))))
                            .clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(31));
                    assertThat(s.verbs("a", "job-1")).as("renewed at 20 s, then the lease expired on purpose").containsExactly("create", "renew", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isLessThan("2026-12-02T00:00:00Z");
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.history("job-1")).first().satisfies(h -> assertThat(h.outcome()).isEqualTo("StartTimeout"));
                    assertThat(s.checkMessage("job-1")).contains("withdrawn from a");
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                }),
                row("Unstarted attempts are withdrawn (issue 20 rule 1)", "a copy that started meanwhile is kept: withdrawal called off, lease renewed", s -> {
                    s.options(o -> o.withStartTimeout(new StartTimeoutOptions(Duration.ofSeconds(30), Duration.ofMinutes(10))))
                            .clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(31)).report("a", "job-1", "Running").advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.verbs("a", "job-1")).as("the expiry, then a renewal at once").containsExactly("create", "renew", "renew", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isGreaterThan("2026-12-02T00:00:30Z");
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                }),
                row("Unstarted attempts are withdrawn (issue 20 rule 1, drill 10)",
                        "an admitted copy whose pod finds no node is fenced after the start timeout, stopped by its agent, then placed elsewhere", s -> {
                    s.options(o -> o.withStartTimeout(new StartTimeoutOptions(Duration.ofSeconds(30), Duration.ofMinutes(10))))
                            .clusters("a", "b").start();
                    s.submit("job-1", 2);
                    s.cluster("a").unschedulable(s.workload("job-1"), "0/2 nodes are available: 2 Insufficient nvidia.com/gpu");
                    s.advance(Duration.ofSeconds(29));
                    assertThat(s.verbs("a", "job-1")).as("before the timeout: renewed only").containsExactly("create", "renew");
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).as("the lease expired on purpose").isLessThan("2026-12-02T00:00:00Z");
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.createdOn("job-1")).as("no node is no start: it waits for the agent").containsExactly("a");
                    assertThat(s.verbs("a", "job-1")).as("not renewed again").containsExactly("create", "renew", "renew");
                    s.report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertThat(s.history("job-1")).first().satisfies(h -> assertThat(h.outcome()).isEqualTo("StartTimeout"));
                    assertThat(s.checkMessage("job-1")).contains("withdrawn from a").contains("unschedulable: 0/2 nodes are available");
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                }),
                row("Quota held in a flavor no cluster serves (issue 20 rule 2)", "the check says so at once, and the quota is released after the timeout", s -> {
                    s.clusters("a").start();
                    s.cluster("a").flavor("h100");
                    s.advance(Duration.ofSeconds(1)).submit("job-1", 2);
                    assertThat(s.checkMessage("job-1")).contains("no connected worker cluster offers flavor a100");
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                    s.advance(Duration.ofMinutes(5).plusSeconds(2));
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("False");
                    assertThat(s.checkMessage("job-1")).contains("retrying");
                    assertThat(s.createdOn("job-1")).isEmpty();
                }),
                row("Evicted while running (issue 20 rule 4)", "a deactivated workload keeps its quota until its copy is confirmed stopped", s -> {
                    s.clusters("a").start();
                    s.submit("job-1", 2).report("a", "job-1", "Running").advance(Duration.ofSeconds(1));
                    s.cluster("a").livePods(s.workload("job-1"), 1);
                    s.deactivate("job-1").advance(Duration.ofSeconds(3));
                    assertThat(s.condition("job-1", "Evicted")).startsWith("True");
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                    assertThat(s.verbs("a", "job-1")).contains("fence");
                    s.cluster("a").livePods(s.workload("job-1"), 0);
                    s.advance(Duration.ofSeconds(3));
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("False");
                    assertThat(s.holds("job-1")).isEmpty();
                })
        );
    }
}
