package dev.berth.manager.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.PodSetDemand;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import dev.berth.protocol.VisibilityApi.States;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dispatch, worker and runtime layers of a workload that holds quota behind the MultiKueue
 * check. Placement decisions come from the real PlacementPolicy, worker reasons in the wording of
 * worker-agent's AttemptAdmission.
 */
class DispatchExplanationTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team-a", "x");
    private static final AdmissionCheckState PENDING = new AdmissionCheckState("multikueue", CheckStates.PENDING, null, NOW);

    private static AdmissionDiagnosis reserved() {
        var queues = new AdmissionDiagnosis.Queues("lq", true, StopPolicy.NONE, "team-a", true, StopPolicy.NONE, null, null, true,
                null, QueueingStrategy.BEST_EFFORT_FIFO);
        return new AdmissionDiagnosis(KEY, new WorkloadRequest(KEY, "lq", 0, 0, List.of()), true, false, true, false, queues,
                null, null, List.of(), null, List.of(PENDING));
    }

    private static PlacementDecision place(ClusterView... clusters) {
        PlacementRequest request = new PlacementRequest(KEY, 0,
                List.of(new PodSetDemand("main", 1, Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", "a100"))));
        return new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS)
                .place(request, List.of(clusters), DispatchStrategy.DEFAULT, null);
    }

    private static ClusterView cluster(String name, boolean connected, Map<String, Long> freeA100) {
        Map<String, FlavorCapacity> flavors = freeA100 == null ? Map.of()
                : Map.of("a100", new FlavorCapacity("a100", freeA100, freeA100));
        return new ClusterView(name, connected, false, NOW, flavors);
    }

    @Test
    void everyRejectedClusterIsNamedWithItsReason() {
        PlacementDecision decision = place(cluster("east", true, null), cluster("west", true, Map.of("nvidia.com/gpu", 2L)),
                cluster("north", false, Map.of("nvidia.com/gpu", 8L)));
        WorkloadExplanation explanation = Explainer.explain(reserved(), new DispatchFacts(PENDING, decision, null));

        assertThat(explanation.layer(Layers.ADMISSION).state()).isEqualTo(States.OK);
        Layer dispatch = explanation.layer(Layers.DISPATCH);
        assertThat(dispatch.state()).isEqualTo(States.BLOCKED);
        assertThat(dispatch.reason()).isEqualTo(Reasons.NO_CLUSTER_AVAILABLE);
        assertThat(dispatch.message()).contains("east: flavor a100 missing", "west: no capacity: insufficient nvidia.com/gpu: 8 requested, 2 free",
                "north: not connected");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> clusters = (List<Map<String, Object>>) dispatch.details().get("clusters");
        assertThat(clusters).extracting(c -> c.get("reason"))
                .containsExactly(Reasons.FLAVOR_MISSING, Reasons.NO_CAPACITY, Reasons.CLUSTER_NOT_CONNECTED);
        assertThat(explanation.answer()).isEqualTo(dispatch.message());
        assertThat(explanation.layer(Layers.WORKER).state()).isEqualTo(States.NOT_REACHED);
    }

    @Test
    void rejectionWordingOfThePolicyIsClassified() {
        ClusterView cordoned = new ClusterView("c", true, true, NOW, Map.of());
        ClusterView silent = new ClusterView("s", true, false, null, Map.of());
        PlacementDecision decision = place(cordoned, silent);
        assertThat(decision.rejections().values()).extracting(ClusterRejection::reasonOf)
                .containsExactly(Reasons.CLUSTER_CORDONED, Reasons.CLUSTER_HEARTBEAT_STALE);
        assertThat(ClusterRejection.reasonOf("breaker open since 10s")).isEqualTo(Reasons.CLUSTER_BREAKER_OPEN);
        assertThat(ClusterRejection.reasonOf("lease lost")).isEqualTo(Reasons.CLUSTER_LEASE_LOST);
    }

    @Test
    void theWorkersPendingReasonIsMapped() {
        Map<String, String> agentReasons = Map.of(
                "no node matches flavor a100 nodeLabels {gpu=a100}", Reasons.NO_NODE_MATCHES_FLAVOR,
                "untolerated taint nvidia.com/gpu=present:NoSchedule in flavor a100", Reasons.TAINT_NOT_TOLERATED,
                "insufficient nvidia.com/gpu: 8 requested, 4 free on matching nodes", Reasons.INSUFFICIENT_NODE_CAPACITY);
        agentReasons.forEach((agentReason, expected) -> {
            RemoteAttempt attempt = new RemoteAttempt("west", "a-1", "Pending", agentReason, null, 0, 0, 0, List.of());
            WorkloadExplanation explanation = Explainer.explain(reserved(), new DispatchFacts(PENDING, place(), attempt));
            assertThat(explanation.layer(Layers.DISPATCH).reason()).isEqualTo(Reasons.DISPATCHED);
            Layer worker = explanation.layer(Layers.WORKER);
            assertThat(worker.reason()).isEqualTo(expected);
            assertThat(worker.state()).isEqualTo(States.BLOCKED);
            assertThat(explanation.answer()).isEqualTo("Cluster west has not started the attempt: " + agentReason + ".");
        });
    }

    @Test
    void failingPodsComeWithTheirContainerReason() {
        RemoteAttempt attempt = new RemoteAttempt("west", "a-1", "Running", null, null, 1, 0, 1,
                List.of(new RemoteAttempt.PodProblem("x-0", "trainer", "CrashLoopBackOff", "back-off 5m0s")));
        WorkloadExplanation explanation = Explainer.explain(reserved(), new DispatchFacts(PENDING, null, attempt));
        assertThat(explanation.layer(Layers.WORKER).state()).isEqualTo(States.OK);
        Layer runtime = explanation.layer(Layers.RUNTIME);
        assertThat(runtime.reason()).isEqualTo(Reasons.PODS_FAILING);
        assertThat(explanation.answer()).contains("x-0/trainer: CrashLoopBackOff (back-off 5m0s)");
    }

    @Test
    void aQueueWithoutDispatchCheckNeedsNoDispatch() {
        WorkloadExplanation explanation = Explainer.explain(reserved(), DispatchFacts.NONE);
        assertThat(explanation.layer(Layers.DISPATCH).reason()).isEqualTo(Reasons.NO_DISPATCH_NEEDED);
    }
}
