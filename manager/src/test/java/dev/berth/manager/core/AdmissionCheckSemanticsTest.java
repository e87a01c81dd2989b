package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.key;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's two-phase admission: quota reservation, then admission checks. */
class AdmissionCheckSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("quota is reserved and Admitted stays False until every check is Ready", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.admitted("team/w")).isFalse();
                    assertThat(s.condition("team/w", Conditions.ADMITTED).message())
                            .isEqualTo("The workload has not all admission checks ready: waiting for prov, budget");
                    assertThat(s.status("team/w").admissionChecks()).extracting(AdmissionCheckState::state)
                            .containsExactly(CheckStates.PENDING, CheckStates.PENDING);
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(1000);
                    assertThat(s.queueStatus("team").reservingWorkloads()).isEqualTo(1);
                    assertThat(s.queueStatus("team").admittedWorkloads()).isZero();
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.READY, "provisioned");
                    assertThat(s.admitted("team/w")).isFalse();
                }),
                row("Ready on every check admits the workload", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.READY, "");
                    s.controller.setAdmissionCheckState(key("team/w"), "budget", CheckStates.READY, "");
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(s.condition("team/w", Conditions.ADMITTED).reason()).isEqualTo("Admitted");
                    assertThat(s.queueStatus("team").admittedWorkloads()).isEqualTo(1);
                }),
                row("a check of an admitted workload turning Pending un-admits it, keeping the quota (Kueue's UnsatisfiedChecks)", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.READY, "");
                    s.controller.setAdmissionCheckState(key("team/w"), "budget", CheckStates.READY, "");
                    assertThat(s.admitted("team/w")).isTrue();
                    s.controller.setAdmissionCheckState(key("team/w"), "budget", CheckStates.PENDING, "placing again");
                    assertThat(s.admitted("team/w")).isFalse();
                    assertThat(s.condition("team/w", Conditions.ADMITTED).reason()).isEqualTo("UnsatisfiedChecks");
                    assertThat(s.condition("team/w", Conditions.ADMITTED).message())
                            .isEqualTo("The workload has not all admission checks ready: waiting for budget");
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(1000);
                    s.schedule();
                    assertThat(s.queueStatus("team").admittedWorkloads()).isZero();
                    assertThat(s.queueStatus("team").reservingWorkloads()).isEqualTo(1);
                    s.controller.setAdmissionCheckState(key("team/w"), "budget", CheckStates.READY, "placed");
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(s.queueStatus("team").admittedWorkloads()).isEqualTo(1);
                }),
                row("Retry releases the quota, resets the checks and requeues the workload", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "budget", CheckStates.READY, "");
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.RETRY, "no capacity");
                    WorkloadStatus retried = s.status("team/w");
                    assertThat(retried.isTrue(Conditions.QUOTA_RESERVED)).isFalse();
                    assertThat(retried.condition(Conditions.EVICTED).reason()).isEqualTo("AdmissionCheck");
                    assertThat(retried.condition(Conditions.EVICTED).message())
                            .isEqualTo("Evicted due to AdmissionCheck in Retry state: \"prov\" (no capacity)");
                    assertThat(retried.requeueAt()).isNull();
                    assertThat(retried.isTrue(Conditions.REQUEUED)).isTrue();
                    assertThat(retried.admissionChecks()).extracting(AdmissionCheckState::state)
                            .containsOnly(CheckStates.PENDING);
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    s.schedule();
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.admitted("team/w")).isFalse();
                }),
                row("a check keeps its retryCount when the workload reserves quota again (the provisioning check names its next request by it)", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.RETRY, "no capacity");
                    s.schedule();
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.status("team/w").admissionChecks()).extracting(AdmissionCheckState::name, AdmissionCheckState::retryCount)
                            .containsExactly(org.assertj.core.groups.Tuple.tuple("prov", 1), org.assertj.core.groups.Tuple.tuple("budget", 0));
                }),
                row("Retry with requeueAfterSeconds keeps the workload out of its queue until requeueState.requeueAt", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "4"));
                    s.run(s.w("team", "other").request("cpu", "4"));
                    java.time.Instant retriedAt = s.clock.instant();
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.RETRY, "no capacity", 60);
                    WorkloadStatus retried = s.status("team/w");
                    assertThat(retried.requeueAt()).isEqualTo(retriedAt.plusSeconds(60));
                    assertThat(retried.requeueCount()).isEqualTo(1);
                    assertThat(retried.admissionChecks()).filteredOn(c -> c.name().equals("prov"))
                            .extracting(AdmissionCheckState::retryCount).containsExactly(1);
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    s.schedule();
                    assertThat(s.reserved("team/other")).as("the freed quota goes to the next workload").isTrue();
                    s.finish("team/other");
                    s.clock.advance(java.time.Duration.ofSeconds(50));
                    s.schedule();
                    assertThat(s.reserved("team/w")).as("still backing off").isFalse();
                    assertThat(s.controller.pendingIn("team")).doesNotContain(key("team/w"));
                    s.clock.advance(java.time.Duration.ofSeconds(10));
                    s.schedule();
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.status("team/w").requeueAt()).isNull();
                    assertThat(s.condition("team/w", Conditions.REQUEUED).reason()).isEqualTo("QuotaReserved");
                }),
                row("without requeueAfterSeconds from the check, Berth backs off like Kueue's ProvisioningRequest check: 60s doubling up to 1800s", s -> {
                    assertThat(AdmissionCheckBackoff.requeueAfterSeconds(1)).isEqualTo(60);
                    assertThat(AdmissionCheckBackoff.requeueAfterSeconds(2)).isEqualTo(120);
                    assertThat(AdmissionCheckBackoff.requeueAfterSeconds(5)).isEqualTo(960);
                    assertThat(AdmissionCheckBackoff.requeueAfterSeconds(6)).isEqualTo(1800);
                    assertThat(AdmissionCheckBackoff.requeueAfterSeconds(40)).isEqualTo(1800);
                }),
                row("Rejected on a workload that holds no quota deactivates it too", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.RETRY, "", 600);
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.REJECTED, "");
                    assertThat(s.sink.active.get(key("team/w"))).isFalse();
                    assertThat(s.condition("team/w", Conditions.EVICTED).message())
                            .isEqualTo("The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\"");
                    assertThat(s.status("team/w").requeueAt()).as("the backoff ends with the deactivation").isNull();
                    s.clock.advance(java.time.Duration.ofSeconds(700));
                    s.schedule();
                    assertThat(s.reserved("team/w")).isFalse();
                }),
                row("Rejected deactivates the workload and evicts it for good", s -> {
                    twoChecks(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.controller.setAdmissionCheckState(key("team/w"), "prov", CheckStates.REJECTED, "not allowed");
                    s.schedule();
                    assertThat(s.sink.active.get(key("team/w"))).isFalse();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("DeactivatedDueToAdmissionCheck");
                    assertThat(s.condition("team/w", Conditions.EVICTED).message())
                            .isEqualTo("The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\" (not allowed)");
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    assertThat(s.controller.pendingIn("team")).isEmpty();
                }),
                row("a check with onFlavors does not apply to a workload assigned another flavor", s -> {
                    spotCheck(s);
                    s.run(s.w("team", "on-demand").request("cpu", "2"));
                    assertThat(s.flavorOf("team/on-demand", "cpu")).isEqualTo("on-demand");
                    assertThat(s.admitted("team/on-demand")).isTrue();
                    assertThat(s.status("team/on-demand").admissionChecks()).isEmpty();
                }),
                row("a check with onFlavors applies when an assigned flavor matches", s -> {
                    spotCheck(s);
                    s.run(s.w("team", "fill").request("cpu", "2"));
                    s.run(s.w("team", "spot").request("cpu", "2"));
                    assertThat(s.flavorOf("team/spot", "cpu")).isEqualTo("spot");
                    assertThat(s.reserved("team/spot")).isTrue();
                    assertThat(s.admitted("team/spot")).isFalse();
                    assertThat(s.status("team/spot").admissionChecks()).extracting(AdmissionCheckState::name).containsExactly("spot-check");
                }),
                row("a ClusterQueue referencing a missing AdmissionCheck is inactive and admits nothing", s -> {
                    s.flavors("default").cq(clusterQueue("team").admissionCheck("missing").group(flavor("default", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    Condition active = s.queueStatus("team").conditions().get(0);
                    assertThat(active.status()).isFalse();
                    assertThat(active.reason()).isEqualTo("AdmissionCheckNotFound");
                    s.controller.applyAdmissionCheck("missing", true);
                    s.schedule();
                    assertThat(s.reserved("team/w")).isTrue();
                    assertThat(s.queueStatus("team").conditions().get(0).status()).isTrue();
                }),
                row("a ClusterQueue referencing an inactive AdmissionCheck is inactive and admits nothing", s -> {
                    s.flavors("default").cq(clusterQueue("team").admissionCheck("prov").group(flavor("default", quota("cpu", "4"))));
                    s.controller.applyAdmissionCheck("prov", false);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.queueStatus("team").conditions().get(0).status()).isFalse();
                }));
    }

    private static void twoChecks(Scenario s) {
        s.flavors("default").cq(clusterQueue("team").admissionCheck("prov").admissionCheck("budget")
                .group(flavor("default", quota("cpu", "4"))));
        s.controller.applyAdmissionCheck("prov", true);
        s.controller.applyAdmissionCheck("budget", true);
    }

    private static void spotCheck(Scenario s) {
        s.flavors("on-demand", "spot").cq(clusterQueue("team").admissionCheck("spot-check", "spot")
                .group(flavor("on-demand", quota("cpu", "2")), flavor("spot", quota("cpu", "4"))));
        s.controller.applyAdmissionCheck("spot-check", true);
    }
}
