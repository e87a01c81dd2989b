package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.Explainer;
import dev.berth.manager.explain.Layer;
import dev.berth.manager.explain.WorkloadExplanation;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import dev.berth.protocol.VisibilityApi.States;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The admission layer of an explanation, one row per blocking reason: the diagnosis runs the
 * scheduler's own assigner and planner over the controller's state, and the explanation names the
 * reason with the numbers. Every row also checks that explaining changed nothing.
 */
class ExplainDiagnosisTest {
    private static final String GPU = "nvidia.com/gpu";

    static Stream<Scenario.Row> rows() {
        return Stream.of(
                row("a missing LocalQueue is named", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.submit(s.w("team-a", "x").queue("nope").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.LOCAL_QUEUE_NOT_FOUND, "LocalQueue nope doesn't exist in namespace team-a");
                }),
                row("an inactive ClusterQueue says why", s -> {
                    s.cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.CLUSTER_QUEUE_INACTIVE, "a100");
                }),
                row("a namespace the selector does not match", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .namespaceSelector(new LabelSelector(Map.of("tier", "gold"), List.of())));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.NAMESPACE_NOT_SELECTED, "Namespace team-a is not selected");
                }),
                row("a ClusterQueue on Hold", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))).stopPolicy(StopPolicy.HOLD));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.CLUSTER_QUEUE_STOPPED, "stopPolicy Hold");
                }),
                row("a LocalQueue on Hold", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.controller.applyLocalQueue(new dev.berth.manager.model.LocalQueueSpec("team-a", "lq", "team-a", StopPolicy.HOLD));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.LOCAL_QUEUE_STOPPED, "LocalQueue lq is stopped");
                }),
                row("not enough quota, with the numbers", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "running").request(GPU, "6"));
                    s.submit(s.w("team-a", "x").request(GPU, "8"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.INSUFFICIENT_QUOTA,
                            "flavor a100, nvidia.com/gpu: needs 8, available 2 of nominal 8 (6 in use); no cohort to borrow from");
                }),
                row("borrowing could help, up to its borrowingLimit", s -> {
                    s.flavors("a100")
                            .cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8", "4", null))))
                            .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "running").request(GPU, "6"));
                    s.submit(s.w("team-a", "x").request(GPU, "8"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.BORROWING_LIMITED,
                            "needs 8, available 2 of nominal 8 (6 in use); borrowing could give 4 more from cohort gpu-pool (borrowingLimit 4), still 2 short");
                }),
                row("the cohort has nothing to lend", s -> {
                    s.flavors("a100")
                            .cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team-b", "running").request(GPU, "4"));
                    s.submit(s.w("team-a", "x").request(GPU, "6"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.INSUFFICIENT_QUOTA, "nothing to borrow in cohort gpu-pool");
                }),
                row("preemption blocked: no lower-priority workload", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER));
                    s.run(s.w("team-a", "important").priority(100).request(GPU, "8"));
                    s.submit(s.w("team-a", "x").priority(5).request(GPU, "4"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.PREEMPTION_BLOCKED,
                            "preemption cannot help: no workload in ClusterQueue team-a that LowerPriority allows to preempt (priority 5)");
                }),
                row("preemption policy Never", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "big").request(GPU, "8"));
                    s.submit(s.w("team-a", "x").request(GPU, "4"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.INSUFFICIENT_QUOTA, "withinClusterQueue is Never");
                }),
                row("an admission check still pending", s -> {
                    s.controller.applyAdmissionCheck("provisioning", true);
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))).admissionCheck("provisioning"));
                    s.run(s.w("team-a", "x").request(GPU, "1"));
                    expect(s, "team-a/x", States.WAITING, Reasons.ADMISSION_CHECK_PENDING, "provisioning is Pending");
                }),
                row("a deactivated workload", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.controller.submit(s.w("team-a", "x").request(GPU, "1").build(), false, null);
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.INACTIVE_WORKLOAD, "deactivated");
                }),
                row("an admitted workload is fine at this layer", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "x").request(GPU, "1"));
                    expect(s, "team-a/x", States.OK, Reasons.ADMITTED, "Admitted by ClusterQueue team-a");
                }),
                row("StrictFIFO: waiting behind the head, with its position", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .strategy(dev.berth.manager.model.QueueingStrategy.STRICT_FIFO));
                    s.run(s.w("team-a", "running").request(GPU, "8"));
                    s.submit(s.w("team-a", "head").request(GPU, "4"));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", States.BLOCKED, Reasons.INSUFFICIENT_QUOTA, "position 2 of 2 in ClusterQueue team-a (2 in LocalQueue lq)");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void explainsTheAdmissionLayer(Scenario.Row row) {
        row.run();
    }

    private static void expect(Scenario s, String key, String state, String reason, String messagePart) {
        int writes = s.sink.workloadWrites;
        WorkloadKey workload = Scenario.key(key);
        WorkloadExplanation explanation = Explainer.explain(s.controller.diagnose(workload).orElseThrow(), DispatchFacts.NONE);
        Layer admission = explanation.layer(Layers.ADMISSION);
        assertThat(admission.reason()).as(admission.message()).isEqualTo(reason);
        assertThat(admission.state()).isEqualTo(state);
        assertThat(admission.message()).contains(messagePart);
        assertThat(explanation.layers()).extracting(Layer::layer)
                .containsExactly(Layers.ADMISSION, Layers.DISPATCH, Layers.WORKER, Layers.RUNTIME);
        if (!state.equals(States.OK)) assertThat(explanation.answer()).isNotBlank().doesNotContain("\n");
        assertThat(s.sink.workloadWrites).as("explaining writes nothing").isEqualTo(writes);
        assertThat(s.controller.schedule().admitted()).as("explaining changes no decision").isZero();
    }
}
