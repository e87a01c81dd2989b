package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.Explainer;
import dev.berth.manager.explain.QuotaAgainstCapacity;
import dev.berth.manager.explain.WorkerClusterRow;
import dev.berth.manager.explain.WorkloadExplanation;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.protocol.VisibilityApi.Layers;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The first line of an explanation, one row per situation: what the workload still lacks, whose
 * quota is used up, what borrowing can add and from whom, and whether preemption can help. The
 * admission layer below it keeps the full sentence with every number.
 */
class OneLineAnswerTest {
    private static final String GPU = "nvidia.com/gpu";

    static Stream<Scenario.Row> rows() {
        return Stream.of(
                row("quota used up in every flavor, borrowing limited, nothing preemptible (the issue's example)", s -> {
                    s.flavors("a100", "h100")
                            .cq(clusterQueue("team-a-cq").cohort("gpu-pool")
                                    .group(flavor("a100", quota(GPU, "8", "4", null)), flavor("h100", quota(GPU, "8", "4", null))))
                            .cq(clusterQueue("team-b-cq").cohort("gpu-pool")
                                    .group(flavor("a100", quota(GPU, "8")), flavor("h100", quota(GPU, "8"))));
                    s.run(s.w("team-a-cq", "on-a100").request(GPU, "8"));
                    s.run(s.w("team-a-cq", "on-h100").request(GPU, "8"));
                    s.submit(s.w("team-a-cq", "x").request(GPU, "8"));
                    s.schedule();
                    expect(s, "team-a-cq/x", "Waiting for 4 nvidia.com/gpu: team-a-cq has used its a100 and h100 quota (8/8 each)"
                            + " and can borrow only 4 more from gpu-pool; nothing may be preempted.");
                }),
                row("quota, not capacity: the fleet has idle GPUs on a flavor the queue has no quota for", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "running").request(GPU, "8"));
                    s.submit(s.w("team-a", "x").request(GPU, "4"));
                    s.schedule();
                    var fleet = List.of(new WorkerClusterRow("spot", true, null, null, WorkerClusterRow.HEALTHY, null,
                            List.of(new WorkerClusterRow.FlavorRow("a100-spot", 2, Map.of(GPU, "16"), Map.of(GPU, "16"))), List.of()));
                    var capacity = QuotaAgainstCapacity.of(s.controller.quotaSnapshot(), fleet);
                    WorkloadExplanation explanation = Explainer.explain(s.controller.diagnose(Scenario.key("team-a/x")).orElseThrow(),
                            DispatchFacts.NONE, capacity);
                    assertThat(explanation.answer()).isEqualTo("Waiting for 4 nvidia.com/gpu: team-a has used its a100 quota (8/8)"
                            + " and is in no cohort to borrow from; nothing may be preempted;"
                            + " the fleet has 16 nvidia.com/gpu idle (a100-spot 16): quota, not capacity, holds it back.");
                }),
                row("some quota left, no cohort", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team-a", "running").request(GPU, "6"));
                    s.submit(s.w("team-a", "x").request(GPU, "8"));
                    s.schedule();
                    expect(s, "team-a/x", "Waiting for 6 nvidia.com/gpu: team-a has only 2 of 8 a100 quota free"
                            + " and is in no cohort to borrow from; nothing may be preempted.");
                }),
                row("more than the queue can ever get", s -> {
                    s.flavors("a100")
                            .cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8", "4", null))))
                            .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8"))));
                    s.submit(s.w("team-a", "x").request(GPU, "16"));
                    s.schedule();
                    expect(s, "team-a/x", "Never fits: it needs 16 nvidia.com/gpu and team-a can get at most 12 on any flavor"
                            + " (nominal quota plus what it may borrow from gpu-pool); shrink it or raise the quota.");
                }),
                row("the cohort has nothing free to lend", s -> {
                    s.flavors("a100")
                            .cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team-a", "mine").request(GPU, "4"));
                    s.run(s.w("team-b", "theirs").request(GPU, "4"));
                    s.submit(s.w("team-a", "x").request(GPU, "2"));
                    s.schedule();
                    expect(s, "team-a/x", "Waiting for 2 nvidia.com/gpu: team-a has used its a100 quota (4/4)"
                            + " and nothing is free to borrow in gpu-pool; nothing may be preempted.");
                }),
                row("preemption possible: the layer's own sentence stays the answer", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER));
                    s.run(s.w("team-a", "low").priority(1).request(GPU, "8"));
                    s.submit(s.w("team-a", "x").priority(100).request(GPU, "4"));
                    WorkloadExplanation explanation = explain(s, "team-a/x");
                    assertThat(explanation.answer()).isEqualTo(explanation.layer(Layers.ADMISSION).message()).startsWith("Preempting 1 workload(s)");
                }),
                row("StrictFIFO: a workload that would fit waits behind the head", s -> {
                    s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .strategy(QueueingStrategy.STRICT_FIFO));
                    s.run(s.w("team-a", "running").request(GPU, "6"));
                    s.submit(s.w("team-a", "head").request(GPU, "4"));
                    s.submit(s.w("team-a", "x").request(GPU, "1"));
                    s.schedule();
                    expect(s, "team-a/x", "Behind 1 workload in team-a: StrictFIFO admits none behind its head, which waits for quota; this one would fit.");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void answersInOneLine(Scenario.Row row) {
        row.run();
    }

    private static WorkloadExplanation explain(Scenario s, String key) {
        return Explainer.explain(s.controller.diagnose(Scenario.key(key)).orElseThrow(), DispatchFacts.NONE);
    }

    private static void expect(Scenario s, String key, String oneLine) {
        WorkloadExplanation explanation = explain(s, key);
        assertThat(explanation.answer()).as(explanation.layer(Layers.ADMISSION).message()).isEqualTo(oneLine);
        assertThat(explanation.answer()).doesNotContain("\n");
        assertThat(explanation.layer(Layers.ADMISSION).message()).as("the layer keeps the full sentence").isNotEqualTo(oneLine);
    }
}
