package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.PodSetDemand;
import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.RemoteAttempt;
import dev.berth.manager.explain.ExplainScope;
import dev.berth.manager.explain.Suggestion;
import dev.berth.manager.explain.WorkloadExplanation;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.StopPolicy;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Explain's answer for workload team-a/x in one situation per row: the one-line answer and the
 * changes that would admit it now. Each suggestion is then made for real in a fresh copy of the
 * situation (the queue changed through the controller, or the workload submitted again) and the
 * scheduler's next cycle must admit x (or preempt for it, where the suggestion says so); unchanged,
 * the next cycle leaves x pending. A suggestion is thus the scheduler's decision, not a guess.
 * Dispatch-side situations (flavor without nodes, cluster down, node fit) hold quota: nothing about
 * quota is suggested there. Berth has no topology-aware scheduling, so there is no topology row.
 */
class ExplainSituationsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GPU = "nvidia.com/gpu";
    private static final String X = "team-a/x";
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    record Situation(String name, Consumer<ExplainWorld> setup, String answer, List<String> suggestions) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Situation> situations() {
        return Stream.of(
                new Situation("quota exhausted, no cohort; another LocalQueue of the namespace has room", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))))
                            .cq(clusterQueue("spare").group(flavor("a100", quota(GPU, "4")))).lq("team-a", "spare-lq", "spare");
                    w.run(w.w("team-a", "running").request(GPU, "8"));
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                }, "Waiting for 4 nvidia.com/gpu: team-a has used its a100 quota (8/8) and is in no cohort to borrow from;"
                        + " nothing may be preempted.",
                        List.of("Raise the nominalQuota of team-a for a100 nvidia.com/gpu by 4 (8 to 12)",
                                "Move it to LocalQueue spare-lq (ClusterQueue spare)")),
                new Situation("borrowing limited (the issue's example), a pod set that may shrink", w -> {
                    w.flavors("a100", "h100")
                            .cq(clusterQueue("team-a-cq").cohort("gpu-pool")
                                    .group(flavor("a100", quota(GPU, "8", "4", null)), flavor("h100", quota(GPU, "8", "4", null))))
                            .cq(clusterQueue("team-b-cq").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8")), flavor("h100", quota(GPU, "8"))))
                            .lq("team-a", "lq", "team-a-cq");
                    w.run(w.w("team-a", "on-a100").request(GPU, "8"));
                    w.run(w.w("team-a", "on-h100").request(GPU, "8"));
                    w.submit(w.w("team-a", "x").count(8).request(GPU, "1"));
                }, "Waiting for 4 nvidia.com/gpu: team-a-cq has used its a100 and h100 quota (8/8 each)"
                        + " and can borrow only 4 more from gpu-pool; nothing may be preempted.",
                        List.of("Raise the borrowingLimit of team-a-cq for a100 nvidia.com/gpu by 4 (4 to 8)",
                                "Raise the borrowingLimit of team-a-cq for h100 nvidia.com/gpu by 4 (4 to 8)",
                                "Reduce pod set main to 4 pods (from 8)")),
                new Situation("lending limited: team-b lends only 2 of its idle 8", w -> {
                    w.flavors("a100")
                            .cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "8", null, "2"))));
                    w.run(w.w("team-a", "running").request(GPU, "4"));
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                }, "Waiting for 2 nvidia.com/gpu: team-a has used its a100 quota (4/4) and can borrow only 2 more from gpu-pool;"
                        + " nothing may be preempted.",
                        List.of("Raise the lendingLimit of team-b for a100 nvidia.com/gpu by 2 (2 to 4)")),
                new Situation("nothing preemptible at its priority; a higher WorkloadPriorityClass may preempt", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER));
                    w.priorityClass("low", -10).priorityClass("high", 100).priorityClass("urgent", 1000);
                    w.run(w.w("team-a", "running").request(GPU, "8"));
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                }, "Waiting for 4 nvidia.com/gpu: team-a has used its a100 quota (8/8) and is in no cohort to borrow from;"
                        + " nothing may be preempted.",
                        List.of("Raise the nominalQuota of team-a for a100 nvidia.com/gpu by 4 (8 to 12)",
                                "Use WorkloadPriorityClass high (priority 100, now 0): it may preempt")),
                new Situation("stop policy: the ClusterQueue is held; the other LocalQueue admits", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))).stopPolicy(StopPolicy.HOLD))
                            .cq(clusterQueue("spare").group(flavor("a100", quota(GPU, "4")))).lq("team-a", "spare-lq", "spare");
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                }, "ClusterQueue team-a is stopped (stopPolicy Hold): it admits no new workloads.",
                        List.of("Move it to LocalQueue spare-lq (ClusterQueue spare)")),
                new Situation("namespace mismatch: nothing to suggest, no LocalQueue elsewhere", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8")))
                            .namespaceSelector(new LabelSelector(Map.of("tier", "gold"), List.of())));
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                }, "Namespace team-a is not selected by the namespaceSelector of ClusterQueue team-a.", List.of()),
                new Situation("workloads ahead need the same GPUs (BestEffortFIFO, not the head)", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))));
                    w.run(w.w("team-a", "running").request(GPU, "8"));
                    w.submit(w.w("team-a", "head").priority(5).request(GPU, "8"));
                    w.submit(w.w("team-a", "x").request(GPU, "8"));
                    w.s.schedule();
                }, "Behind 1 workload in team-a that needs the same 8 nvidia.com/gpu; waiting for 8 nvidia.com/gpu:"
                        + " team-a has used its a100 quota (8/8) and is in no cohort to borrow from; nothing may be preempted.",
                        List.of("Raise the nominalQuota of team-a for a100 nvidia.com/gpu by 16 (8 to 24)")),
                new Situation("StrictFIFO: the head ahead needs the same GPUs and blocks; a raise must admit both", w -> {
                    w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))).strategy(QueueingStrategy.STRICT_FIFO));
                    w.run(w.w("team-a", "running").request(GPU, "6"));
                    w.submit(w.w("team-a", "head").priority(5).request(GPU, "4"));
                    w.submit(w.w("team-a", "x").request(GPU, "4"));
                    w.s.schedule();
                }, "Behind 1 workload in team-a that needs the same 4 nvidia.com/gpu, and StrictFIFO admits none of those behind them first;"
                        + " waiting for 2 nvidia.com/gpu: team-a has only 2 of 8 a100 quota free and is in no cohort to borrow from;"
                        + " nothing may be preempted.",
                        List.of("Raise the nominalQuota of team-a for a100 nvidia.com/gpu by 6 (8 to 14)")),
                new Situation("flavor without nodes: quota held, no worker cluster has a100 nodes", w -> dispatched(w,
                        place(cluster("east", true, null), cluster("west", true, null)), null),
                        "No worker cluster can start the workload now: east: flavor a100 missing; west: flavor a100 missing.", List.of()),
                new Situation("cluster down: the one cluster with room is not connected", w -> dispatched(w,
                        place(cluster("north", false, Map.of(GPU, 8L))), null),
                        "No worker cluster can start the workload now: north: not connected.", List.of()),
                new Situation("worker node fit: dispatched, but no node of the cluster fits the pods", w -> dispatched(w, null,
                        new RemoteAttempt("west", "a-1", "Pending", "insufficient nvidia.com/gpu: 8 requested, 4 free on matching nodes",
                                null, 0, 0, 0, List.of())),
                        "Cluster west has not started the attempt: insufficient nvidia.com/gpu: 8 requested, 4 free on matching nodes.", List.of()));
    }

    /** x holds quota behind the MultiKueue check; the dispatch facts say what the placement or the worker found. */
    private static void dispatched(ExplainWorld w, PlacementDecision placement, RemoteAttempt attempt) {
        w.s.controller.applyAdmissionCheck("multikueue", true);
        w.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "8"))).admissionCheck("multikueue"));
        w.run(w.w("team-a", "x").request(GPU, "8"));
        AdmissionCheckState check = w.s.status(X).admissionChecks().get(0);
        w.facts = new DispatchFacts(check, placement, attempt);
    }

    private static PlacementDecision place(ClusterView... clusters) {
        PlacementRequest request = new PlacementRequest(Scenario.key(X), 0,
                List.of(new PodSetDemand("main", 1, Map.of(GPU, 8L), Map.of(GPU, "a100"))));
        return new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS)
                .place(request, List.of(clusters), DispatchStrategy.DEFAULT, null);
    }

    private static ClusterView cluster(String name, boolean connected, Map<String, Long> freeA100) {
        Map<String, FlavorCapacity> flavors = freeA100 == null ? Map.of() : Map.of("a100", new FlavorCapacity("a100", freeA100, freeA100));
        return new ClusterView(name, connected, false, NOW, flavors);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("situations")
    void answersAndVerifiedSuggestions(Situation situation) {
        ExplainWorld world = new ExplainWorld();
        situation.setup().accept(world);
        WorkloadExplanation explanation = world.explain(X, ExplainScope.FLEET);
        assertThat(explanation.answer()).isEqualTo(situation.answer());
        assertThat(explanation.suggestions()).extracting(Suggestion::change).containsExactlyElementsOf(situation.suggestions());

        AdmissionAdvice advice = world.advice(X);
        for (AdmissionRemedy remedy : advice.remedies()) {
            ExplainWorld changed = new ExplainWorld();
            situation.setup().accept(changed);
            changed.apply(remedy, X);
            changed.s.schedule();
            assertThat(changed.s.reserved(X) || (remedy.preempts() && changed.anyEvicted()))
                    .as("the scheduler admits x (or preempts for it) after: " + remedy).isTrue();
        }
        boolean heldBefore = world.s.reserved(X);
        world.s.schedule();
        assertThat(world.s.reserved(X)).as("unchanged, the next cycle decides as before").isEqualTo(heldBefore);
    }

    @Test
    void theEstimateIsTheCycleThatAdmitsIt() {
        ExplainWorld w = new ExplainWorld();
        w.flavors("a100").cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))))
                .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4"))));
        w.run(w.w("team-a", "mine").request(GPU, "4").maximumExecutionTimeSeconds(7200));
        w.run(w.w("team-b", "theirs").request(GPU, "4").maximumExecutionTimeSeconds(3600));
        w.run(w.w("team-b", "unlimited").request(GPU, "0"));
        w.submit(w.w("team-a", "x").request(GPU, "4"));
        Instant at = w.s.condition("team-b/theirs", Conditions.ADMITTED).lastTransitionTime().plusSeconds(3600);

        WorkloadExplanation explanation = w.explain(X, ExplainScope.TENANT);
        assertThat(explanation.estimate()).isEqualTo("The quota it needs frees up by " + at + " at the latest, when 1 running workload"
                + " reaches its maximum execution time (0 of them in this namespace).");
        assertThat(explanation.estimate()).doesNotContain("team-b", "theirs");

        w.s.clock.advance(Duration.between(w.s.clock.instant(), at).minusSeconds(2));
        w.s.schedule();
        assertThat(w.s.reserved(X)).as("a second before the estimate").isFalse();
        w.s.schedule();
        assertThat(w.s.clock.instant()).isEqualTo(at);
        assertThat(w.s.reserved(X)).as("at the estimate: team-b's workload ran out of time, x borrows its quota").isTrue();
    }

    @Test
    void aTenantReadsItsAnswerWithoutAnyOtherTeamsName() throws Exception {
        ExplainWorld lending = new ExplainWorld();
        situations().filter(row -> row.name().startsWith("lending limited")).findFirst().orElseThrow().setup().accept(lending);
        assertThat(lending.explain(X, ExplainScope.FLEET).suggestions()).extracting(Suggestion::change)
                .containsExactly("Raise the lendingLimit of team-b for a100 nvidia.com/gpu by 2 (2 to 4)");
        WorkloadExplanation tenant = lending.explain(X, ExplainScope.TENANT);
        assertThat(tenant.suggestions()).extracting(Suggestion::change)
                .containsExactly("Raise the lendingLimit of another ClusterQueue in cohort gpu-pool for a100 nvidia.com/gpu by 2");
        assertThat(JSON.writeValueAsString(tenant)).contains("team-a", "gpu-pool").doesNotContain("team-b");

        ExplainWorld reclaim = new ExplainWorld();
        reclaim.flavors("a100").cq(clusterQueue("team-a").cohort("gpu-pool").group(flavor("a100", quota(GPU, "4")))
                        .preemption(PreemptionPolicy.NEVER, PreemptionPolicy.ANY))
                .cq(clusterQueue("team-b").cohort("gpu-pool").group(flavor("a100", quota(GPU, "0"))));
        reclaim.run(reclaim.w("team-b", "theirs").request(GPU, "4"));
        reclaim.submit(reclaim.w("team-a", "x").request(GPU, "4"));
        assertThat(reclaim.explain(X, ExplainScope.FLEET).answer()).contains("team-b/theirs");
        WorkloadExplanation reclaiming = reclaim.explain(X, ExplainScope.TENANT);
        assertThat(reclaiming.answer()).startsWith("Preempting 1 workload(s) ((another namespace)/(hidden)) to make room in ClusterQueue team-a");
        assertThat(JSON.writeValueAsString(reclaiming)).doesNotContain("team-b", "theirs");
    }
}
