package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.key;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.PodsReadyPolicy.RequeuingStrategy;
import dev.berth.manager.core.PodsReadyPolicy.Timestamp;
import dev.berth.manager.core.Scenario.Row;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's waitForPodsReady (workload_controller reconcileNotReadyTimeout, the scheduler's
 * waitForPodsReadyIfNeeded, "Sequential Admission with Ready Pods"): the PodsReady condition, the
 * PodsReadyTimeout eviction with requeuing backoff and limit, recoveryTimeout, and blockAdmission.
 */
class WaitForPodsReadySemanticsTest {
    private static final String GPU = "nvidia.com/gpu";
    private static final PodsReadyPolicy ONE_MINUTE = PodsReadyPolicy.enabled(Duration.ofMinutes(1));

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static SchedulerOptions with(PodsReadyPolicy policy) {
        return SchedulerOptions.DEFAULTS.withWaitForPodsReady(policy);
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("PodsReady is WaitForStart after admission and Started once the worker reports every pod ready", with(ONE_MINUTE), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.controller.setPodsReady(key("team/w"), false);
                    Condition waiting = s.condition("team/w", Conditions.PODS_READY);
                    assertThat(waiting.status()).isFalse();
                    assertThat(waiting.reason()).isEqualTo("WaitForStart");
                    assertThat(waiting.message()).isEqualTo("Not all pods are ready or succeeded");
                    s.controller.setPodsReady(key("team/w"), true);
                    Condition ready = s.condition("team/w", Conditions.PODS_READY);
                    assertThat(ready.status()).isTrue();
                    assertThat(ready.reason()).isEqualTo("Started");
                    assertThat(ready.message()).isEqualTo("All pods reached readiness and the workload is running");
                    s.clock.advance(Duration.ofMinutes(10));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("without waitForPodsReady the worker's report sets no PodsReady condition and nothing times out", s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.controller.setPodsReady(key("team/w"), false);
                    s.clock.advance(Duration.ofHours(1));
                    s.schedule();
                    assertThat(s.condition("team/w", Conditions.PODS_READY)).isNull();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("timeout: pods not all ready in time evicts with PodsReadyTimeout and requeues after 60s, then 120s", with(ONE_MINUTE), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.controller.setPodsReady(key("team/w"), false);
                    s.clock.advance(Duration.ofSeconds(50));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(Duration.ofSeconds(10));
                    s.controller.schedule();
                    Condition evicted = s.condition("team/w", Conditions.EVICTED);
                    assertThat(evicted.reason()).isEqualTo("PodsReadyTimeout");
                    assertThat(evicted.message()).isEqualTo("Exceeded the PodsReady timeout team/w");
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    assertThat(s.status("team/w").requeueCount()).isEqualTo(1);
                    assertThat(s.status("team/w").requeueAt()).isEqualTo(s.clock.instant().plusSeconds(60));
                    assertThat(s.condition("team/w", Conditions.PODS_READY).reason()).isEqualTo("WaitForStart");
                    s.clock.advance(Duration.ofSeconds(59));
                    s.controller.schedule();
                    assertThat(s.reserved("team/w")).as("still backing off").isFalse();
                    s.clock.advance(Duration.ofSeconds(1));
                    s.controller.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.status("team/w").requeueCount()).isEqualTo(2);
                    assertThat(s.status("team/w").requeueAt()).isEqualTo(s.clock.instant().plusSeconds(120));
                }),
                row("the backoff doubles up to backoffMaxSeconds", with(ONE_MINUTE.withRequeuingStrategy(
                        new RequeuingStrategy(Timestamp.EVICTION, null, 10, 25))), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    long[] expected = {10, 20, 25, 25};
                    for (long seconds : expected) {
                        s.clock.advance(Duration.ofMinutes(1));
                        s.controller.schedule();
                        assertThat(s.status("team/w").requeueAt()).isEqualTo(s.clock.instant().plusSeconds(seconds));
                        s.clock.advance(Duration.ofSeconds(seconds));
                        s.controller.schedule();
                        assertThat(s.admitted("team/w")).isTrue();
                    }
                }),
                row("backoffLimitCount: the timeout after the last allowed requeue deactivates with RequeuingLimitExceeded", with(ONE_MINUTE.withRequeuingStrategy(
                        new RequeuingStrategy(Timestamp.EVICTION, 1, 60, 3600))), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("PodsReadyTimeout");
                    s.clock.advance(Duration.ofSeconds(60));
                    s.controller.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    Condition evicted = s.condition("team/w", Conditions.EVICTED);
                    assertThat(evicted.reason()).isEqualTo("DeactivatedDueToRequeuingLimitExceeded");
                    assertThat(evicted.message()).isEqualTo("The workload is deactivated due to exceeding the maximum number of re-queuing retries");
                    assertThat(s.sink.active.get(key("team/w"))).isFalse();
                    assertThat(s.status("team/w").requeueAt()).isNull();
                    s.clock.advance(Duration.ofHours(1));
                    s.controller.schedule();
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.controller.pendingIn("team")).doesNotContain(key("team/w"));
                }),
                row("a gang job that never fully starts releases its GPUs to the next workload at the timeout", with(ONE_MINUTE), s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team", "gang").request(GPU, "1").count(8));
                    s.run(s.w("team", "next").request(GPU, "8"));
                    s.controller.setPodsReady(key("team/gang"), false); // 5 of 8 pods ready, the rest unschedulable
                    assertThat(s.reserved("team/next")).isFalse();
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.reserved("team/gang")).isFalse();
                    assertThat(s.admitted("team/next")).isTrue();
                    assertThat(s.usage("team", "a100/" + GPU)).isEqualTo(8);
                }),
                row("recoveryTimeout: a workload that was ready and lost readiness is evicted if not ready again in time", with(
                        ONE_MINUTE.withRecoveryTimeout(Duration.ofSeconds(30))), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.controller.setPodsReady(key("team/w"), true);
                    s.clock.advance(Duration.ofMinutes(5));
                    s.controller.setPodsReady(key("team/w"), false);
                    Condition recovering = s.condition("team/w", Conditions.PODS_READY);
                    assertThat(recovering.reason()).isEqualTo("WaitForRecovery");
                    assertThat(recovering.message()).isEqualTo("At least one pod has failed, waiting for recovery");
                    s.clock.advance(Duration.ofSeconds(20));
                    s.controller.schedule();
                    s.controller.setPodsReady(key("team/w"), true);
                    assertThat(s.condition("team/w", Conditions.PODS_READY).reason()).isEqualTo("Recovered");
                    s.controller.setPodsReady(key("team/w"), false);
                    s.clock.advance(Duration.ofSeconds(29));
                    s.controller.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    s.clock.advance(Duration.ofSeconds(1));
                    s.controller.schedule();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("PodsReadyTimeout");
                    assertThat(s.reserved("team/w")).isFalse();
                }),
                row("without recoveryTimeout a workload that lost readiness stays admitted", with(ONE_MINUTE), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.controller.setPodsReady(key("team/w"), true);
                    s.controller.setPodsReady(key("team/w"), false);
                    s.clock.advance(Duration.ofHours(1));
                    s.controller.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("blockAdmission: nothing else is admitted, in any ClusterQueue, until the admitted workload's pods are ready",
                        with(ONE_MINUTE.withBlockAdmission(true)), s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "8"))))
                            .cq(clusterQueue("other").group(flavor("default", quota("cpu", "8"))));
                    s.run(s.w("team", "first").request("cpu", "1"));
                    s.run(s.w("team", "second").request("cpu", "1"));
                    s.run(s.w("other", "elsewhere").request("cpu", "1"));
                    assertThat(s.admitted("team/first")).isTrue();
                    assertThat(s.reserved("team/second")).isFalse();
                    assertThat(s.reserved("other/elsewhere")).isFalse();
                    Condition held = s.condition("team/second", Conditions.QUOTA_RESERVED);
                    assertThat(held.reason()).isEqualTo("WaitingForPodsReady");
                    assertThat(held.message()).isEqualTo("waiting for all admitted workloads to be in PodsReady condition");
                    s.controller.setPodsReady(key("team/first"), true);
                    s.schedule();
                    assertThat(s.reserved("team/second")).isTrue();
                    assertThat(s.reserved("other/elsewhere")).as("one admission at a time").isFalse();
                    s.controller.setPodsReady(key("team/second"), true);
                    s.schedule();
                    assertThat(s.admitted("other/elsewhere")).isTrue();
                }),
                row("blockAdmission: the timeout eviction of the unready workload lets the next one in", with(ONE_MINUTE.withBlockAdmission(true)), s -> {
                    team(s);
                    s.run(s.w("team", "stuck").request("cpu", "1"));
                    s.run(s.w("team", "next").request("cpu", "1"));
                    assertThat(s.reserved("team/next")).isFalse();
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.reserved("team/stuck")).isFalse();
                    assertThat(s.admitted("team/next")).isTrue();
                }),
                row("requeuingStrategy.timestamp Eviction: the evicted workload goes behind the ones queued before its eviction",
                        with(ONE_MINUTE.withRequeuingStrategy(new RequeuingStrategy(Timestamp.EVICTION, null, 0, 0))), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.run(s.w("team", "later").request("cpu", "8"));
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.admitted("team/later")).isTrue();
                    assertThat(s.reserved("team/w")).isFalse();
                }),
                row("requeuingStrategy.timestamp Creation: the evicted workload keeps its place by creation time",
                        with(ONE_MINUTE.withRequeuingStrategy(new RequeuingStrategy(Timestamp.CREATION, null, 0, 0))), s -> {
                    team(s);
                    s.run(s.w("team", "w").request("cpu", "8"));
                    s.run(s.w("team", "later").request("cpu", "8"));
                    s.clock.advance(Duration.ofMinutes(1));
                    s.controller.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(s.reserved("team/later")).isFalse();
                }));
    }

    private static void team(Scenario s) {
        s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "8"))));
    }
}
