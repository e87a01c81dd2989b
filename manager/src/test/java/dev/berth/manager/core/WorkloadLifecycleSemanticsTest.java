package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.key;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.protocol.Conditions;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** All-or-nothing and partial admission, missing queues, and the workload status schema from submit to finish. */
class WorkloadLifecycleSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("a gang that fits only partly is not admitted at all", s -> {
                    team(s);
                    s.run(s.w("team", "gang").request("cpu", "1").podSet("workers").request("cpu", "1").count(8));
                    assertThat(s.reserved("team/gang")).isFalse();
                    assertThat(s.status("team/gang").admission()).isNull();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    assertThat(s.pendingMessage("team/gang")).startsWith("couldn't assign flavors to pod set workers:");
                }),
                row("partial admission admits the largest count down to minCount that fits", s -> {
                    team(s);
                    s.run(s.w("team", "busy").request("cpu", "2"));
                    s.run(s.w("team", "elastic").request("cpu", "1").count(10).minCount(4));
                    PodSetAssignment assignment = s.status("team/elastic").admission().podSetAssignments().get(0);
                    assertThat(assignment.count()).isEqualTo(6);
                    assertThat(assignment.resourceUsage()).isEqualTo(Map.of("cpu", 6000L));
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(8000);
                }),
                row("partial admission never goes below minCount", s -> {
                    team(s);
                    s.run(s.w("team", "busy").request("cpu", "6"));
                    s.run(s.w("team", "elastic").request("cpu", "1").count(10).minCount(4));
                    assertThat(s.reserved("team/elastic")).isFalse();
                }),
                row("a workload whose LocalQueue does not exist is pending until the LocalQueue is created", s -> {
                    team(s);
                    s.run(s.w("team", "w").queue("missing").request("cpu", "1"));
                    assertThat(s.pendingMessage("team/w")).isEqualTo("LocalQueue missing doesn't exist");
                    s.controller.applyLocalQueue(localQueue("team", "missing", "team"));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("a workload whose ClusterQueue does not exist is pending until it is created", s -> {
                    s.flavors("default");
                    s.controller.applyLocalQueue(localQueue("team", "lq", "team"));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.pendingMessage("team/w")).isEqualTo("ClusterQueue team doesn't exist");
                    s.cq(clusterQueue("team").group(flavor("default", quota("cpu", "8"))));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("an admitted workload carries QuotaReserved and Admitted with Kueue's reasons and its admission", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "2").count(2));
                    WorkloadStatus status = s.status("team/w");
                    Condition reserved = status.condition(Conditions.QUOTA_RESERVED);
                    assertThat(reserved.status()).isTrue();
                    assertThat(reserved.reason()).isEqualTo("QuotaReserved");
                    assertThat(reserved.message()).startsWith("Quota reserved in ClusterQueue team, wait time since queued was ");
                    assertThat(status.condition(Conditions.ADMITTED).reason()).isEqualTo("Admitted");
                    assertThat(status.admission().clusterQueue()).isEqualTo("team");
                    PodSetAssignment assignment = status.admission().podSetAssignments().get(0);
                    assertThat(assignment.name()).isEqualTo("main");
                    assertThat(assignment.flavors()).isEqualTo(Map.of("cpu", "default"));
                    assertThat(assignment.resourceUsage()).isEqualTo(Map.of("cpu", 4000L));
                    assertThat(assignment.count()).isEqualTo(2);
                    assertThat(status.condition(Conditions.EVICTED)).isNull();
                    assertThat(s.localQueueStatus("team").admittedWorkloads()).isEqualTo(1);
                }),
                row("a pending workload has QuotaReserved=False with reason Pending", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "9"));
                    Condition reserved = s.condition("team/w", Conditions.QUOTA_RESERVED);
                    assertThat(reserved.status()).isFalse();
                    assertThat(reserved.reason()).isEqualTo("Pending");
                    assertThat(s.localQueueStatus("team").pendingWorkloads()).isEqualTo(1);
                }),
                row("finish: Finished=True reason Succeeded, quota released, the next workload admitted", s -> {
                    team(s);
                    s.run(s.w("team", "first").request("cpu", "8"));
                    s.run(s.w("team", "second").request("cpu", "8"));
                    s.finish("team/first").schedule();
                    Condition finished = s.condition("team/first", Conditions.FINISHED);
                    assertThat(finished.status()).isTrue();
                    assertThat(finished.reason()).isEqualTo("Succeeded");
                    assertThat(s.admitted("team/second")).isTrue();
                    assertThat(s.queueStatus("team").reservingWorkloads()).isEqualTo(1);
                }),
                row("a failed workload finishes with reason Failed", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.finish(key("team/w"), false, null, null);
                    assertThat(s.condition("team/w", Conditions.FINISHED).reason()).isEqualTo("Failed");
                    assertThat(s.usage("team", "default/cpu")).isZero();
                }),
                row("deactivating an admitted workload evicts it with reason Deactivated; reactivating readmits it", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setActive(key("team/w"), false);
                    s.schedule();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("Deactivated");
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    s.controller.setActive(key("team/w"), true);
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("maximumExecutionTimeSeconds: when the admitted time runs out the workload is deactivated with Kueue's reason", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8").maximumExecutionTimeSeconds(60));
                    s.run(s.w("team", "next").request("cpu", "8"));
                    s.clock.advance(java.time.Duration.ofSeconds(50));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(java.time.Duration.ofSeconds(10));
                    s.schedule();
                    assertThat(s.sink.active.get(key("team/w"))).isFalse();
                    Condition evicted = s.condition("team/w", Conditions.EVICTED);
                    assertThat(evicted.reason()).isEqualTo("DeactivatedDueToMaximumExecutionTimeExceeded");
                    assertThat(evicted.message()).isEqualTo("The workload is deactivated due to exceeding the maximum execution time");
                    assertThat(s.status("team/w").accumulatedPastExecutionTimeSeconds()).isNull();
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.controller.pendingIn("team")).doesNotContain(key("team/w"));
                    assertThat(s.admitted("team/next")).isTrue();
                }),
                row("maximumExecutionTimeSeconds counts the time admitted before an eviction (accumulatedPastExecutionTimeSeconds)", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8").maximumExecutionTimeSeconds(100));
                    s.clock.advance(java.time.Duration.ofSeconds(39));
                    s.controller.evict(key("team/w"), "ClusterLost", "the worker cluster was lost");
                    assertThat(s.status("team/w").accumulatedPastExecutionTimeSeconds()).isEqualTo(39);
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(java.time.Duration.ofSeconds(58));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(java.time.Duration.ofSeconds(1));
                    s.schedule();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("DeactivatedDueToMaximumExecutionTimeExceeded");
                    assertThat(s.sink.active.get(key("team/w"))).isFalse();
                }),
                row("deleting an admitted workload releases its quota", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.run(s.w("team", "next").request("cpu", "8"));
                    s.controller.delete(key("team/w"));
                    s.schedule();
                    assertThat(s.admitted("team/next")).isTrue();
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(8000);
                }));
    }

    private static void team(Scenario s) {
        s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "8"))));
    }
}
