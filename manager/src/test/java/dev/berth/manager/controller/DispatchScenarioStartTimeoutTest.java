package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.controller.DispatchScenario.Row;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/failover.md's "Unstarted attempts are withdrawn (start timeout, issue 20 rule 1)", the rules not played in
 * {@link DispatchScenarioHoldsTest} (which has the withdrawal confirmed Stopped, the call-off, and drill 10's
 * unschedulable copy): the other two confirmations (gone from the listing, the lease run out, with the expiry sent
 * again meanwhile), an attempt with two copies finished only once both are confirmed, a copy never reported, the
 * timeout turned off, and the clusters a withdrawn workload keeps away from. Start timeout 30 s, lease 60 s (renewed
 * every 20 s), margin 10 s. Each row passes on StartTimeoutWithdrawals before and after StartTimeoutDecision; the
 * rule "not while a renewal is in flight" is StartTimeoutDecisionTest's only: the fake answers every renewal at once.
 */
class DispatchScenarioStartTimeoutTest {
    private static final String RULE = "Unstarted attempts are withdrawn (issue 20 rule 1)";
    /** The expiry of a lease renewed at 0 s or 20 s, stamped one lease and a second before a time past 30 s. */
    private static final String BEFORE_DISPATCH = "2026-12-02T00:00:00Z";

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void unstartedCopiesAreWithdrawn(Row row) {
        row.run();
    }

    private static DispatchScenario timeout(DispatchScenario s, Duration startTimeout, Duration avoidFor) {
        return s.options(o -> o.withStartTimeout(new StartTimeoutOptions(startTimeout, avoidFor)));
    }

    static Stream<Row> rows() {
        return Stream.of(
                row(RULE, "a fenced copy gone from its cluster's listing is confirmed withdrawn: the workload is placed elsewhere", s -> {
                    timeout(s, Duration.ofSeconds(30), Duration.ofMinutes(10)).clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(31));
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).as("fenced").isLessThan(BEFORE_DISPATCH);
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    s.cluster("a").omitFromListings(s.workload("job-1"), 1_000);
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.verbs("a", "job-1")).as("the withdrawn copy is deleted").endsWith("delete");
                    assertThat(s.holding("job-1")).containsExactly("b");
                    assertThat(s.history("job-1")).first().satisfies(h -> assertThat(h.outcome()).isEqualTo("StartTimeout"));
                }),
                row(RULE, "an expiry the cluster did not store is sent again every poll; the copy counts as withdrawn once its lease ran out", s -> {
                    timeout(s, Duration.ofSeconds(30), Duration.ofMinutes(10)).clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(29));
                    assertThat(s.verbs("a", "job-1")).as("renewed at 20 s").containsExactly("create", "renew");
                    s.cluster("a").renewalsFail(true);
                    s.advance(Duration.ofSeconds(5));
                    assertThat(s.verbs("a", "job-1")).as("the expiry at 30 s, then once per poll").hasSizeGreaterThanOrEqualTo(5);
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).as("never stored").isGreaterThan(BEFORE_DISPATCH);
                    s.advance(Duration.ofSeconds(55));
                    assertThat(s.createdOn("job-1")).as("before 20 s + lease + margin = 90 s: the agent may still start it").containsExactly("a");
                    s.advance(Duration.ofSeconds(2));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "b");
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("b");
                    assertThat(s.history("job-1")).first().satisfies(h -> assertThat(h.outcome()).isEqualTo("StartTimeout"));
                }),
                row(RULE, "every copy of an AllAtOnce attempt is fenced, and nothing is deleted or placed until the last is confirmed", s -> {
                    timeout(s, Duration.ofSeconds(30), Duration.ofMinutes(10)).strategy("AllAtOnce").clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity").report("b", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(31));
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isLessThan(BEFORE_DISPATCH);
                    assertThat(s.cluster("b").leaseRenewTimeOf(s.workload("job-1"))).isLessThan(BEFORE_DISPATCH);
                    s.report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.holding("job-1")).as("b's copy is not confirmed yet").containsExactly("a", "b");
                    assertThat(s.history("job-1")).noneSatisfy(h -> assertThat(h.outcome()).isEqualTo("StartTimeout"));
                    s.report("b", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.holding("job-1")).isEmpty();
                    assertThat(s.history("job-1")).first().satisfies(h -> {
                        assertThat(h.outcome()).isEqualTo("StartTimeout");
                        assertThat(h.cluster()).isEqualTo("a, b");
                    });
                    assertThat(s.checkMessage("job-1")).startsWith("withdrawn from a, b after 30s: NoCapacity");
                    assertThat(s.createdOn("job-1")).as("both avoided now").containsExactly("a", "b");
                }),
                row(RULE, "a copy its agent never reported is left to the missing-listing rule: not fenced", s -> {
                    timeout(s, Duration.ofSeconds(30), Duration.ofMinutes(10)).clusters("a", "b").start();
                    s.submit("job-1", 2).advance(Duration.ofSeconds(45));
                    assertThat(s.verbs("a", "job-1")).as("renewed at 20 s and 40 s, never expired").containsExactly("create", "renew", "renew");
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isGreaterThan(BEFORE_DISPATCH);
                    assertThat(s.attempt("job-1").withdrawing()).isFalse();
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                }),
                row(RULE, "a start timeout of zero turns withdrawal off: a copy pending for an hour keeps its lease", s -> {
                    timeout(s, Duration.ZERO, Duration.ofMinutes(10)).clusters("a", "b").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofMinutes(6));
                    assertThat(s.verbs("a", "job-1")).doesNotContain("delete").hasSize(1 + 18);
                    assertThat(s.cluster("a").leaseRenewTimeOf(s.workload("job-1"))).isGreaterThan("2026-12-02T00:05:00Z");
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                }),
                row(RULE, "a withdrawn workload keeps its quota and keeps away from that cluster for avoid-for, then may go back", s -> {
                    timeout(s, Duration.ofSeconds(30), Duration.ofMinutes(2)).clusters("a").start();
                    s.submit("job-1", 2).report("a", "job-1", "Pending", "NoCapacity");
                    s.advance(Duration.ofSeconds(31)).report("a", "job-1", "Stopped", "LeaseExpired").advance(Duration.ofSeconds(2));
                    assertThat(s.holding("job-1")).isEmpty();
                    assertThat(s.condition("job-1", "QuotaReserved")).startsWith("True");
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    assertThat(s.checkMessage("job-1")).startsWith("withdrawn from a after 30s: NoCapacity");
                    s.advance(Duration.ofSeconds(80));
                    assertThat(s.createdOn("job-1")).as("a is avoided until 2 min after the withdrawal").containsExactly("a");
                    s.advance(Duration.ofMinutes(1));
                    assertThat(s.createdOn("job-1")).containsExactly("a", "a");
                    assertThat(s.checkMessage("job-1")).startsWith("withdrawn from a after 30s: NoCapacity; placed on a: dispatched to cluster a");
                })
        );
    }
}
