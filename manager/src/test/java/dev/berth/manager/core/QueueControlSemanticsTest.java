package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.testing.Fixtures;
import dev.berth.manager.testing.Fixtures.ClusterQueueBuilder;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's queue controls: namespaceSelector, stopPolicy on ClusterQueues and LocalQueues, objectRetentionPolicies. */
class QueueControlSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("namespaceSelector null selects no namespace", s -> {
                    s.flavors("default").cq(team().namespaceSelector(null));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.pendingMessage("team/w")).isEqualTo("Workload namespace doesn't match ClusterQueue selector");
                }),
                row("namespaceSelector {} selects every namespace", s -> {
                    s.flavors("default").cq(team().namespaceSelector(LabelSelector.EVERYTHING));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("namespaceSelector matchLabels selects namespaces by their labels", s -> {
                    s.flavors("default").cq(team().namespaceSelector(new LabelSelector(Map.of("research", "true"), List.of())));
                    s.controller.applyNamespace("team", Map.of("research", "true"));
                    s.controller.applyNamespace("other", Map.of("research", "false"));
                    s.controller.applyLocalQueue(new LocalQueueSpec("other", "lq", "team", StopPolicy.NONE));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.run(s.w("other", "w").request("cpu", "1"));
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(s.pendingMessage("other/w")).isEqualTo("Workload namespace doesn't match ClusterQueue selector");
                }),
                row("a namespace label change re-evaluates its pending workloads", s -> {
                    s.flavors("default").cq(team().namespaceSelector(new LabelSelector(Map.of("research", "true"), List.of())));
                    s.controller.applyNamespace("team", Map.of());
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    s.controller.applyNamespace("team", Map.of("research", "true"));
                    s.schedule();
                    assertThat(s.admitted("team/w")).isTrue();
                }),
                row("StrictFIFO: a workload whose namespace does not match is inadmissible and does not hold the head", s -> {
                    s.flavors("default").cq(team().strategy(QueueingStrategy.STRICT_FIFO)
                            .namespaceSelector(new LabelSelector(Map.of("research", "true"), List.of())));
                    s.controller.applyNamespace("team", Map.of("research", "true"));
                    s.controller.applyNamespace("other", Map.of());
                    s.controller.applyLocalQueue(new LocalQueueSpec("other", "lq", "team", StopPolicy.NONE));
                    s.submit(s.w("other", "first").request("cpu", "1"));
                    s.submit(s.w("team", "second").request("cpu", "1"));
                    s.schedule();
                    s.schedule();
                    assertThat(s.pendingMessage("other/first")).isEqualTo("Workload namespace doesn't match ClusterQueue selector");
                    assertThat(s.admitted("team/second")).isTrue();
                    s.controller.applyNamespace("other", Map.of("research", "true"));
                    s.schedule();
                    assertThat(s.admitted("other/first")).isTrue();
                }),
                row("a ClusterQueue naming a missing flavor and check is inactive with Kueue's reasons, and admits once both exist", s -> {
                    s.cq(team().admissionCheck("prov"));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    Condition active = s.queueStatus("team").conditions().get(0);
                    assertThat(active.status()).isFalse();
                    assertThat(active.reason()).isEqualTo("FlavorNotFound");
                    assertThat(active.message()).isEqualTo("Can't admit new workloads: references missing ResourceFlavor(s): default, "
                            + "references missing AdmissionCheck(s): prov.");
                    assertThat(s.reserved("team/w")).isFalse();
                    s.flavors("default");
                    s.controller.applyAdmissionCheck("prov", false);
                    s.schedule();
                    assertThat(s.queueStatus("team").conditions().get(0).message())
                            .isEqualTo("Can't admit new workloads: references inactive AdmissionCheck(s): prov.");
                    assertThat(s.queueStatus("team").conditions().get(0).reason()).isEqualTo("AdmissionCheckInactive");
                    s.controller.applyAdmissionCheck("prov", true);
                    s.schedule();
                    assertThat(s.queueStatus("team").conditions().get(0).status()).isTrue();
                    assertThat(s.reserved("team/w")).isTrue();
                }),
                row("a ClusterQueue whose TAS flavor names a missing Topology is inactive with Kueue's TopologyNotFound, and admits once it exists", s -> {
                    s.controller.applyResourceFlavor(new dev.berth.manager.model.ResourceFlavor("default", Map.of("pool", "h100"),
                            List.of(), List.of(), "datacenter"));
                    s.cq(team());
                    s.run(s.w("team", "w").request("cpu", "1"));
                    Condition active = s.queueStatus("team").conditions().get(0);
                    assertThat(active.status()).isFalse();
                    assertThat(active.reason()).isEqualTo("TopologyNotFound");
                    assertThat(active.message()).isEqualTo("Can't admit new workloads: there is no Topology \"datacenter\" for TAS flavor \"default\".");
                    assertThat(s.reserved("team/w")).isFalse();
                    s.controller.applyTopology("datacenter");
                    s.schedule();
                    assertThat(s.queueStatus("team").conditions().get(0).status()).isTrue();
                    assertThat(s.reserved("team/w")).isTrue();
                    s.controller.deleteTopology("datacenter");
                    s.schedule();
                    assertThat(s.queueStatus("team").conditions().get(0).reason()).isEqualTo("TopologyNotFound");
                }),
                row("ClusterQueue Hold: no new admissions, admitted workloads keep running, Active=False Stopped", s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "running").request("cpu", "1"));
                    s.cq(team().stopPolicy(StopPolicy.HOLD));
                    s.run(s.w("team", "new").request("cpu", "1"));
                    assertThat(s.admitted("team/running")).isTrue();
                    assertThat(s.reserved("team/new")).isFalse();
                    Condition active = s.queueStatus("team").conditions().get(0);
                    assertThat(active.type()).isEqualTo(Conditions.ACTIVE);
                    assertThat(active.status()).isFalse();
                    assertThat(active.reason()).isEqualTo("Stopped");
                    assertThat(s.queueStatus("team").pendingWorkloads()).isEqualTo(1);
                }),
                row("ClusterQueue Hold cancels reservations still waiting on admission checks", s -> {
                    s.flavors("default").cq(team().admissionCheck("prov"));
                    s.controller.applyAdmissionCheck("prov", true);
                    s.run(s.w("team", "reserving").request("cpu", "1"));
                    assertThat(s.reserved("team/reserving")).isTrue();
                    s.cq(team().admissionCheck("prov").stopPolicy(StopPolicy.HOLD));
                    s.schedule();
                    assertThat(s.reserved("team/reserving")).isFalse();
                    assertThat(s.condition("team/reserving", Conditions.EVICTED).reason()).isEqualTo("ClusterQueueStopped");
                    assertThat(s.usage("team", "default/cpu")).isZero();
                }),
                row("ClusterQueue HoldAndDrain evicts admitted workloads with ClusterQueueStopped; resuming readmits them", s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "running").request("cpu", "1"));
                    s.cq(team().stopPolicy(StopPolicy.HOLD_AND_DRAIN));
                    s.schedule();
                    assertThat(s.condition("team/running", Conditions.EVICTED).reason()).isEqualTo("ClusterQueueStopped");
                    assertThat(s.reserved("team/running")).isFalse();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    s.cq(team().stopPolicy(StopPolicy.NONE));
                    s.schedule();
                    assertThat(s.admitted("team/running")).isTrue();
                }),
                row("LocalQueue Hold: no new admissions from it, admitted workloads keep running", s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "running").request("cpu", "1"));
                    s.controller.applyLocalQueue(new LocalQueueSpec("team", "lq", "team", StopPolicy.HOLD));
                    s.run(s.w("team", "new").request("cpu", "1"));
                    assertThat(s.admitted("team/running")).isTrue();
                    assertThat(s.reserved("team/new")).isFalse();
                    assertThat(s.localQueueStatus("team").conditions().get(0).reason()).isEqualTo("Stopped");
                }),
                row("LocalQueue Hold: pendingWorkloads reads 0 while stopped, as Kueue's LocalQueue status", s -> {
                    s.flavors("default").cq(team());
                    s.controller.applyLocalQueue(new LocalQueueSpec("team", "lq", "team", StopPolicy.HOLD));
                    s.run(s.w("team", "waiting").request("cpu", "1"));
                    assertThat(s.reserved("team/waiting")).isFalse();
                    assertThat(s.localQueueStatus("team").pendingWorkloads()).isZero();
                }),
                row("a stopped LocalQueue of a missing ClusterQueue reads Stopped: Kueue decides the stop first", s -> {
                    s.flavors("default");
                    s.controller.applyLocalQueue(new LocalQueueSpec("team", "lq", "nowhere", StopPolicy.HOLD));
                    s.schedule();
                    assertThat(s.localQueueStatus("team").conditions().get(0).reason()).isEqualTo("Stopped");
                }),
                row("a LocalQueue of an inactive ClusterQueue is inactive with ClusterQueueIsInactive", s -> {
                    s.cq(team()); // its flavor "default" does not exist: the ClusterQueue is inactive (FlavorNotFound)
                    s.schedule();
                    Condition active = s.localQueueStatus("team").conditions().get(0);
                    assertThat(active.status()).isFalse();
                    assertThat(active.reason()).isEqualTo("ClusterQueueIsInactive");
                    assertThat(active.message()).isEqualTo("Can't submit new workloads to clusterQueue");
                    s.flavors("default");
                    s.schedule();
                    assertThat(s.localQueueStatus("team").conditions().get(0).reason()).isEqualTo("Ready");
                }),
                row("LocalQueue status lists every flavor and resource of its ClusterQueue, unused ones at zero", s -> {
                    s.flavors("default", "spare").cq(Fixtures.clusterQueue("team").group(flavor("default", quota("cpu", "4")), flavor("spare", quota("cpu", "2"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    QueueStatus status = s.localQueueStatus("team");
                    assertThat(status.flavorsUsage()).extracting(FlavorUsage::flavor).containsExactly("default", "spare");
                    assertThat(status.flavorsUsage().get(1).resources().get(0).total()).isZero();
                    assertThat(status.flavorsUsage().get(0).resources().get(0).total()).isEqualTo(1000);
                }),
                row("LocalQueue HoldAndDrain evicts its admitted workloads with LocalQueueStopped", s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "running").request("cpu", "1"));
                    s.controller.applyLocalQueue(new LocalQueueSpec("team", "lq", "team", StopPolicy.HOLD_AND_DRAIN));
                    s.schedule();
                    assertThat(s.condition("team/running", Conditions.EVICTED).reason()).isEqualTo("LocalQueueStopped");
                    assertThat(s.reserved("team/running")).isFalse();
                    s.controller.applyLocalQueue(new LocalQueueSpec("team", "lq", "team", StopPolicy.NONE));
                    s.schedule();
                    assertThat(s.admitted("team/running")).isTrue();
                }),
                row("objectRetentionPolicies afterFinished: a finished workload expires only after the duration",
                        new SchedulerOptions(false, List.of(), Duration.ofHours(1)), s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.finish("team/w");
                    s.schedule();
                    assertThat(s.sink.expired).isEmpty();
                    s.clock.advance(Duration.ofMinutes(58));
                    s.schedule();
                    assertThat(s.sink.expired).isEmpty();
                    s.clock.advance(Duration.ofMinutes(2));
                    s.schedule();
                    assertThat(s.sink.expired).containsExactly(Scenario.key("team/w"));
                    s.schedule();
                    assertThat(s.sink.expired).hasSize(1);
                }),
                row("without objectRetentionPolicies finished workloads are kept", s -> {
                    s.flavors("default").cq(team());
                    s.run(s.w("team", "w").request("cpu", "1"));
                    s.finish("team/w");
                    s.clock.advance(Duration.ofDays(365));
                    s.schedule();
                    assertThat(s.sink.expired).isEmpty();
                }));
    }

    private static ClusterQueueBuilder team() {
        return clusterQueue("team").group(flavor("default", quota("cpu", "4")));
    }
}
