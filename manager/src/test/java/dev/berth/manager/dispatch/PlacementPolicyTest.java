package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.model.WorkloadKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Placement decisions, one row per behaviour. */
class PlacementPolicyTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final String GPU = "nvidia.com/gpu";
    private final PlacementPolicy policy = new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS);

    /** 1 pod set of `pods` pods with `gpusPerPod` GPUs of flavor a100. */
    private static PlacementRequest gpus(int pods, long gpusPerPod) {
        return new PlacementRequest(WorkloadKey.of("team-a", "train"), 0,
                List.of(new PodSetDemand("main", pods, Map.of(GPU, gpusPerPod, "cpu", 1000L), Map.of(GPU, "a100", "cpu", "a100"))));
    }

    private static ClusterView cluster(String name, String flavor, long freeGpus, long largestGpus) {
        return new ClusterView(name, true, false, NOW.minusSeconds(1), Map.of(flavor,
                new FlavorCapacity(flavor, Map.of(GPU, freeGpus, "cpu", 64_000L), Map.of(GPU, largestGpus, "cpu", 32_000L))));
    }

    static Stream<Arguments> defaultStrategy() {
        return Stream.of(
                Arguments.of("the only cluster with the flavor and room", gpus(1, 8),
                        List.of(cluster("a", "a100", 8, 8), cluster("b", "h100", 16, 8)), List.of("a"), Map.of("b", "flavor a100 missing")),
                Arguments.of("a full cluster is skipped", gpus(1, 8),
                        List.of(cluster("full", "a100", 6, 6), cluster("roomy", "a100", 8, 8)), List.of("roomy"),
                        Map.of("full", "no capacity: insufficient nvidia.com/gpu: 8 requested, 6 free")),
                Arguments.of("enough in total but no node fits one pod", gpus(1, 8),
                        List.of(cluster("spread", "a100", 8, 4)), List.of(),
                        Map.of("spread", "no capacity: no node has 8 nvidia.com/gpu free for one pod of main (largest free on one node: 4)")),
                Arguments.of("the most free of the scarce resource after placement wins", gpus(2, 4),
                        List.of(cluster("small", "a100", 8, 8), cluster("big", "a100", 16, 8)), List.of("big"), Map.of()),
                Arguments.of("a disconnected cluster", gpus(1, 1),
                        List.of(new ClusterView("down", false, false, NOW, Map.of())), List.of(), Map.of("down", "not connected")),
                Arguments.of("a cordoned cluster", gpus(1, 1),
                        List.of(new ClusterView("c", true, true, NOW, Map.of())), List.of(), Map.of("c", "cordoned")),
                Arguments.of("a stale heartbeat", gpus(1, 1),
                        List.of(new ClusterView("old", true, false, NOW.minusSeconds(40), Map.of())), List.of(),
                        Map.of("old", "heartbeat stale for 40s")),
                Arguments.of("an open breaker", gpus(1, 1),
                        List.of(new ClusterView("flaky", true, false, NOW, Map.of(), ClusterHealth.DEGRADED, BreakerState.OPEN)), List.of(),
                        Map.of("flaky", "circuit breaker open: API calls failing")),
                Arguments.of("an unhealthy cluster", gpus(1, 1),
                        List.of(new ClusterView("lost", true, false, NOW, Map.of(), ClusterHealth.AGENT_LOST, BreakerState.CLOSED)), List.of(),
                        Map.of("lost", "unhealthy: AgentLost")),
                Arguments.of("no heartbeat at all", gpus(1, 1),
                        List.of(new ClusterView("new", true, false, null, Map.of())), List.of(), Map.of("new", "no agent heartbeat yet")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaultStrategy")
    void defaultStrategyChoosesOneClusterWhereTheWorkloadStartsNow(String behaviour, PlacementRequest request, List<ClusterView> clusters,
                                                                   List<String> chosen, Map<String, String> reasons) {
        PlacementDecision decision = policy.place(request, clusters, DispatchStrategy.DEFAULT, null);
        assertThat(decision.clusters()).isEqualTo(chosen);
        assertThat(decision.rejections()).isEqualTo(reasons);
    }

    @Test
    void aWorkloadThatFitsNowhereGetsOneMessageWithEveryClustersReason() {
        PlacementDecision decision = policy.place(gpus(1, 8),
                List.of(cluster("a100-ondemand", "a100", 6, 6), cluster("h100", "h100", 16, 8)), DispatchStrategy.DEFAULT, null);
        assertThat(decision.placed()).isFalse();
        assertThat(decision.pendingMessage()).isEqualTo("no worker cluster can start the workload now: "
                + "a100-ondemand: no capacity: insufficient nvidia.com/gpu: 8 requested, 6 free; h100: flavor a100 missing");
    }

    @Test
    void allAtOnceChoosesEveryEligibleClusterRegardlessOfCapacity() {
        PlacementDecision decision = policy.place(gpus(1, 8), List.of(cluster("a", "a100", 0, 0), cluster("b", "a100", 8, 8),
                cluster("c", "h100", 8, 8), new ClusterView("d", false, false, NOW, Map.of())), DispatchStrategy.ALL_AT_ONCE, null);
        assertThat(decision.clusters()).containsExactly("a", "b");
        assertThat(decision.rejections()).containsOnlyKeys("c", "d");
    }

    @Test
    void incrementalAddsKueuesStepOfThreeClustersPerRound() {
        List<ClusterView> clusters = List.of(cluster("a", "a100", 8, 8), cluster("b", "a100", 8, 8), cluster("c", "a100", 8, 8),
                cluster("d", "a100", 8, 8), cluster("e", "a100", 8, 8), cluster("f", "a100", 8, 8), cluster("g", "a100", 8, 8));
        assertThat(policy.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, null).clusters()).containsExactly("a", "b", "c");
        assertThat(policy.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, NOW.minus(Duration.ofMinutes(4))).clusters())
                .containsExactly("a", "b", "c");
        assertThat(policy.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, NOW.minus(Duration.ofMinutes(5))).clusters())
                .containsExactly("a", "b", "c", "d", "e", "f");
        PlacementDecision late = policy.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, NOW.minus(Duration.ofHours(1)));
        assertThat(late.clusters()).containsExactly("a", "b", "c", "d", "e", "f", "g");
    }

    @Test
    void incrementalStepComesFromTheOptions() {
        PlacementPolicy oneAtATime = new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS.withIncrementalStep(1));
        List<ClusterView> clusters = List.of(cluster("a", "a100", 8, 8), cluster("b", "a100", 8, 8), cluster("c", "a100", 8, 8));
        assertThat(oneAtATime.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, null).clusters()).containsExactly("a");
        assertThat(oneAtATime.place(gpus(1, 1), clusters, DispatchStrategy.INCREMENTAL, NOW.minus(Duration.ofMinutes(5))).clusters())
                .containsExactly("a", "b");
    }

    @Test
    void externalDispatchesOnlyToTheEligibleClustersAnOutsideControllerNominated() {
        List<ClusterView> clusters = List.of(cluster("a", "a100", 8, 8), cluster("b", "a100", 8, 8), cluster("c", "h100", 8, 8));
        PlacementDecision none = policy.place(gpus(1, 1), clusters, DispatchStrategy.EXTERNAL, null, List.of());
        assertThat(none.placed()).isFalse();
        assertThat(none.rejections().get("a")).contains("not nominated", "status.nominatedClusterNames");

        PlacementDecision nominated = policy.place(gpus(1, 1), clusters, DispatchStrategy.EXTERNAL, null, List.of("c", "b"));
        assertThat(nominated.clusters()).as("c is nominated but lacks the flavor").containsExactly("b");
        assertThat(nominated.reasons()).containsEntry("a", RejectionReason.NOT_YET).containsEntry("c", RejectionReason.FLAVOR_MISSING);
    }

    @Test
    void strategiesAreParsedFromTheAnnotation() {
        assertThat(DispatchStrategy.parse(null)).isEqualTo(DispatchStrategy.DEFAULT);
        assertThat(DispatchStrategy.parse("AllAtOnce")).isEqualTo(DispatchStrategy.ALL_AT_ONCE);
        assertThat(DispatchStrategy.parse("Incremental")).isEqualTo(DispatchStrategy.INCREMENTAL);
        assertThat(DispatchStrategy.parse("External")).isEqualTo(DispatchStrategy.EXTERNAL);
        assertThatThrownBy(() -> DispatchStrategy.parse("Random")).hasMessageContaining("Default, AllAtOnce, Incremental or External");
    }

    @Test
    void everyRejectionCarriesAReasonCode() {
        PlacementDecision decision = policy.place(gpus(1, 8), List.of(
                new ClusterView("cordoned", true, true, NOW, Map.of()),
                new ClusterView("open", true, false, NOW, Map.of(), ClusterHealth.UNREACHABLE, BreakerState.OPEN),
                new ClusterView("lost", true, false, NOW, Map.of(), ClusterHealth.AGENT_LOST, BreakerState.CLOSED),
                new ClusterView("down", false, false, NOW, Map.of()),
                cluster("full", "a100", 4, 4),
                cluster("fits", "a100", 8, 8)), DispatchStrategy.DEFAULT, null);
        assertThat(decision.clusters()).containsExactly("fits");
        assertThat(decision.reasons()).containsExactly(
                Map.entry("cordoned", RejectionReason.CORDONED), Map.entry("open", RejectionReason.BREAKER_OPEN),
                Map.entry("lost", RejectionReason.UNHEALTHY), Map.entry("down", RejectionReason.NOT_CONNECTED),
                Map.entry("full", RejectionReason.NO_CAPACITY));
        assertThat(RejectionReason.BREAKER_OPEN.code()).isEqualTo("BreakerOpen");
    }

    @Test
    void aDegradedClusterStillTakesWork() {
        ClusterView degraded = new ClusterView("slow", true, false, NOW.minusSeconds(1), cluster("x", "a100", 8, 8).flavors(),
                ClusterHealth.DEGRADED, BreakerState.HALF_OPEN);
        assertThat(policy.place(gpus(1, 8), List.of(degraded), DispatchStrategy.DEFAULT, null).clusters()).containsExactly("slow");
    }
}
