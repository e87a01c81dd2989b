package dev.berth.manager.dispatch;

import static dev.berth.manager.dispatch.TopologyClusters.BLOCK;
import static dev.berth.manager.dispatch.TopologyClusters.RACK;
import static dev.berth.manager.dispatch.TopologyClusters.cluster;
import static dev.berth.manager.dispatch.TopologyClusters.gang;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The topology layer of placement (issue 18), one row per behaviour: which cluster and which domain. */
class TopologyPlacementTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final PlacementPolicy policy = new PlacementPolicy(Clock.fixed(NOW, ZoneOffset.UTC), PlacementOptions.DEFAULTS);

    private PlacementDecision place(PlacementRequest request, TopologyClusters... clusters) {
        List<ClusterView> views = Stream.of(clusters).map(c -> c.view(NOW.minusSeconds(1))).toList();
        return policy.place(request, views, DispatchStrategy.DEFAULT, null);
    }

    /** name, request, clusters, chosen cluster (null: none), chosen domain, levels above the requested one */
    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("required rack: the rack that holds the gang with least to spare",
                        gang(8, 1, TopologyRequest.required(RACK)),
                        List.of(cluster("a", 1, 2, 4, 4).rackFree("b0-r0", 3)), "a", List.of("b0", "b0-r0"), 0),
                Arguments.of("required rack: no rack holds it, though the cluster does",
                        gang(16, 1, TopologyRequest.required(RACK)),
                        List.of(cluster("a", 1, 2, 4, 3)), null, List.of(), 0),
                Arguments.of("required rack: tightest fit across clusters",
                        gang(8, 1, TopologyRequest.required(RACK)),
                        List.of(cluster("roomy", 1, 1, 4, 4), cluster("tight", 1, 1, 4, 2).free("b0-r0-n0", 3)),
                        "tight", List.of("b0", "b0-r0"), 0),
                Arguments.of("required block with rack slices: whole slices only",
                        gang(12, 1, TopologyRequest.required(BLOCK).sliced(RACK, 4)),
                        List.of(cluster("a", 1, 2, 2, 3)), null, List.of(), 0),
                Arguments.of("required block with rack slices: fits when every slice has a rack",
                        gang(8, 1, TopologyRequest.required(BLOCK).sliced(RACK, 4)),
                        List.of(cluster("a", 1, 2, 2, 3)), "a", List.of("b0"), 0),
                Arguments.of("preferred rack at the requested level",
                        gang(8, 1, TopologyRequest.preferred(RACK)),
                        List.of(cluster("a", 2, 2, 2, 4)), "a", List.of("b0", "b0-r0"), 0),
                Arguments.of("preferred rack falls back to a block",
                        gang(16, 1, TopologyRequest.preferred(RACK)),
                        List.of(cluster("a", 2, 2, 2, 4)), "a", List.of("b0"), 1),
                Arguments.of("preferred rack spreads over the flavor only when no block holds it",
                        gang(24, 1, TopologyRequest.preferred(RACK)),
                        List.of(cluster("a", 2, 2, 2, 4)), "a", List.of(), 2),
                Arguments.of("preferred: a cluster with a fitting rack beats a tighter block elsewhere",
                        gang(8, 1, TopologyRequest.preferred(RACK)),
                        List.of(cluster("blocks", 1, 2, 2, 2), cluster("racks", 1, 1, 4, 4)), "racks", List.of("b0", "b0-r0"), 0),
                Arguments.of("unconstrained: anywhere in the flavor",
                        gang(30, 1, TopologyRequest.unconstrained()),
                        List.of(cluster("a", 2, 2, 2, 4)), "a", List.of(), 0),
                Arguments.of("per-pod shape counts: a rack of 4 nodes with 3 free GPUs each (12) holds only four 2-GPU pods",
                        gang(5, 2, TopologyRequest.required(RACK)),
                        List.of(cluster("a", 1, 2, 4, 3).rackFree("b0-r1", 4)), "a", List.of("b0", "b0-r1"), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void choosesClusterAndDomain(String name, PlacementRequest request, List<TopologyClusters> clusters, String cluster,
                                 List<String> domain, int levelsUp) {
        PlacementDecision decision = place(request, clusters.toArray(TopologyClusters[]::new));
        if (cluster == null) {
            assertThat(decision.placed()).isFalse();
            return;
        }
        assertThat(decision.clusters()).containsExactly(cluster);
        assertThat(decision.domainsOn(cluster)).singleElement().satisfies(choice -> {
            assertThat(choice.domain()).isEqualTo(domain);
            assertThat(choice.levelsUp()).isEqualTo(levelsUp);
        });
    }

    @Test
    void noRackAnywhereNamesTheBestDomainWithNumbers() {
        PlacementDecision decision = place(gang(16, 1, TopologyRequest.required(RACK)),
                cluster("gpu-east", 1, 2, 4, 2), cluster("gpu-west", 2, 2, 4, 2).rackFree("b1-r1", 3));

        assertThat(decision.placed()).isFalse();
        assertThat(decision.rejections().get("gpu-west"))
                .isEqualTo("no capacity: no rack has 16 nvidia.com/gpu free for the 16 pods of main in flavor h100; "
                        + "best: b1/b1-r1 with 12 (room for 12 pods)");
        assertThat(TopologySummary.of(decision)).isEqualTo("no rack in any cluster has 16 nvidia.com/gpu free in flavor h100 "
                + "for the 16 pods of main; best: cluster gpu-west b1/b1-r1 with 12 (room for 12 pods)");
        assertThat(decision.pendingMessage()).startsWith("no worker cluster can start the workload now: no rack in any cluster");
    }

    @Test
    void aFlavorWithoutATopologyReportCannotHoldATopologyRequest() {
        ClusterView plain = new ClusterView("plain", true, false, NOW, java.util.Map.of("h100",
                new FlavorCapacity("h100", java.util.Map.of("nvidia.com/gpu", 64L, "cpu", 640_000L),
                        java.util.Map.of("nvidia.com/gpu", 8L, "cpu", 64_000L))));

        PlacementDecision decision = policy.place(gang(8, 1, TopologyRequest.required(RACK)), List.of(plain), DispatchStrategy.DEFAULT, null);

        assertThat(decision.placed()).isFalse();
        assertThat(decision.rejections().get("plain")).contains("flavor h100 reports no topology here");
    }

    @Test
    void withoutATopologyRequestTheTopologyReportChangesNothing() {
        TopologyClusters small = cluster("small", 1, 1, 2, 4);
        TopologyClusters big = cluster("big", 2, 2, 2, 4);

        PlacementDecision decision = place(gang(8, 1, null), small, big);

        assertThat(decision.clusters()).containsExactly("big");
        assertThat(decision.domains()).isEmpty();
        assertThat(decision.shortfalls()).isEmpty();
    }

    @Test
    void aGangJustDispatchedIsTakenOffItsRackUntilTheNextReport() {
        ClusterView reported = cluster("a", 1, 2, 2, 4).view(NOW.minusSeconds(1));
        PlacementRequest first = gang(8, 1, TopologyRequest.required(RACK));
        PlacementDecision placedFirst = policy.place(first, List.of(reported), DispatchStrategy.DEFAULT, null);
        assertThat(placedFirst.domainsOn("a")).singleElement().satisfies(c -> assertThat(c.domain()).containsExactly("b0", "b0-r0"));

        ClusterView withFirst = InFlightDispatches.withoutInFlight(reported, List.of(first));
        PlacementDecision second = policy.place(gang(8, 1, TopologyRequest.required(RACK)), List.of(withFirst), DispatchStrategy.DEFAULT, null);

        assertThat(second.domainsOn("a")).singleElement().satisfies(c -> assertThat(c.domain()).containsExactly("b0", "b0-r1"));
        PlacementDecision third = policy.place(gang(8, 1, TopologyRequest.required(RACK)),
                List.of(InFlightDispatches.withoutInFlight(reported, List.of(first, gang(8, 1, TopologyRequest.required(RACK))))),
                DispatchStrategy.DEFAULT, null);
        assertThat(third.placed()).as("both racks are taken by gangs the report does not show yet").isFalse();
    }
}
