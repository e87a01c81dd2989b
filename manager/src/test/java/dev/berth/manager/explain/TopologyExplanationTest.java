package dev.berth.manager.explain;

import static dev.berth.manager.dispatch.TopologyClusters.RACK;
import static dev.berth.manager.dispatch.TopologyClusters.cluster;
import static dev.berth.manager.dispatch.TopologyClusters.gang;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.TopologyRequest;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.States;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topology layer of explain (issue 18): a gang no rack holds is blocked with the best domain and its numbers. */
class TopologyExplanationTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team-a", "train");
    private static final AdmissionCheckState PENDING = new AdmissionCheckState("multikueue", CheckStates.PENDING, null, NOW);
    private final PlacementPolicy policy = new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS);

    private static AdmissionDiagnosis reserved() {
        var queues = new AdmissionDiagnosis.Queues("lq", true, StopPolicy.NONE, "team-a", true, StopPolicy.NONE, null, null, true,
                null, QueueingStrategy.BEST_EFFORT_FIFO);
        return new AdmissionDiagnosis(KEY, new WorkloadRequest(KEY, "lq", 0, 0, List.of()), true, false, true, false, queues,
                null, null, List.of(), null, List.of(PENDING));
    }

    @Test
    void aGangNoRackHoldsIsBlockedNamingTheBestRackAnywhereWithNumbers() {
        PlacementDecision decision = policy.place(gang(16, 1, TopologyRequest.required(RACK)),
                List.of(cluster("gpu-east", 1, 2, 4, 2).view(NOW), cluster("gpu-west", 2, 2, 4, 2).rackFree("b1-r1", 3).view(NOW)),
                DispatchStrategy.DEFAULT, null);

        WorkloadExplanation explanation = Explainer.explain(reserved(), new DispatchFacts(PENDING, decision, null));

        Layer dispatch = explanation.layer(Layers.DISPATCH);
        assertThat(dispatch.state()).isEqualTo(States.BLOCKED);
        assertThat(explanation.answer()).startsWith("No worker cluster can start the workload now: no rack in any cluster has "
                + "16 nvidia.com/gpu free in flavor h100 for the 16 pods of main; best: cluster gpu-west b1/b1-r1 with 12 (room for 12 pods)");
        @SuppressWarnings("unchecked")
        Map<String, Object> topology = (Map<String, Object>) dispatch.details().get("topology");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> shortfalls = (List<Map<String, Object>>) topology.get("shortfalls");
        assertThat(shortfalls).extracting(s -> s.get("cluster") + " " + s.get("bestDomain") + " " + s.get("bestPodsThatFit"))
                .containsExactly("gpu-east b0/b0-r0 8", "gpu-west b1/b1-r1 12");
    }

    @Test
    void aPlacedGangShowsTheChosenRack() {
        PlacementDecision decision = policy.place(gang(8, 1, TopologyRequest.required(RACK)),
                List.of(cluster("gpu-west", 1, 2, 4, 2).view(NOW)), DispatchStrategy.DEFAULT, null);

        Layer dispatch = Explainer.explain(reserved(), new DispatchFacts(PENDING, decision, null)).layer(Layers.DISPATCH);

        @SuppressWarnings("unchecked")
        Map<String, Object> topology = (Map<String, Object>) dispatch.details().get("topology");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> chosen = (List<Map<String, Object>>) topology.get("chosen");
        assertThat(chosen).singleElement().satisfies(row -> {
            assertThat(row.get("domain")).isEqualTo("b0/b0-r0");
            assertThat(row.get("level")).isEqualTo(RACK);
            assertThat(row.get("podsThatFit")).isEqualTo(8L);
        });
    }

    @Test
    void anAdmittedAttemptSaysOnWhichNodesTheAgentPutThePods() {
        var assignment = new dev.berth.manager.dispatch.TopologyAssignment("main", List.of("kubernetes.io/hostname"),
                List.of(new dev.berth.manager.dispatch.TopologyAssignment.Domain(List.of("h100-3"), 2),
                        new dev.berth.manager.dispatch.TopologyAssignment.Domain(List.of("h100-4"), 2)));
        RemoteAttempt attempt = new RemoteAttempt("h100", "a-1", "Running", null, null, 4, 0, 0, List.of(), List.of(assignment));
        AdmissionCheckState ready = new AdmissionCheckState("multikueue", CheckStates.READY, "admitted in cluster h100", NOW);

        Layer worker = Explainer.explain(reserved(), new DispatchFacts(ready, null, attempt)).layer(Layers.WORKER);

        assertThat(worker.state()).isEqualTo(States.OK);
        assertThat(worker.message()).isEqualTo("Cluster h100 admitted the attempt; pod set main: 2 pods on h100-3, 2 pods on h100-4 "
                + "(kubernetes.io/hostname).");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) worker.details().get("topologyAssignments");
        assertThat(rows).singleElement().satisfies(row -> assertThat(row.get("domains")).asList().hasSize(2));
    }
}
