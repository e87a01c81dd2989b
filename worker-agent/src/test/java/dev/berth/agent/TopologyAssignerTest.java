package dev.berth.agent;

import static dev.berth.agent.Fixtures.boundPod;
import static dev.berth.agent.TopologyFixtures.BLOCK;
import static dev.berth.agent.TopologyFixtures.HOSTNAME;
import static dev.berth.agent.TopologyFixtures.LEVELS;
import static dev.berth.agent.TopologyFixtures.RACK;
import static dev.berth.agent.TopologyFixtures.a100WithTopology;
import static dev.berth.agent.TopologyFixtures.grid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.agent.TopologyPlacement.NotPlaced;
import dev.berth.agent.TopologyPlacement.Placed;
import dev.berth.protocol.crd.PodSetTopology;
import dev.berth.protocol.crd.PodSetTopologyAssignment.Domain;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Kueue's topology assignment on 2 blocks x 2 racks x 2 nodes of 8 A100 (b1-r1-n1 ... b2-r2-n2). */
class TopologyAssignerTest {

    static PodDemand gang(int pods, long gpus, PodSetTopology topology) {
        return new PodDemand("main", pods, Map.of("nvidia.com/gpu", gpus, "pods", 1L),
                NodeRequirement.of(List.of(a100WithTopology()), List.of()), topology);
    }

    static PodSetTopology request(String mode, String level, String... domain) {
        PodSetTopology topology = new PodSetTopology();
        topology.setMode(mode);
        topology.setLevel(level);
        topology.setLevels(new ArrayList<>(LEVELS));
        topology.setDomain(new ArrayList<>(Arrays.asList(domain)));
        return topology;
    }

    static ClusterSnapshot cluster(Pod... bound) {
        return ClusterSnapshot.of(grid(2, 2, 2, 8), List.of(bound));
    }

    static Map<String, Long> podsPerNode(Placed placed) {
        Map<String, Long> perNode = new TreeMap<>();
        placed.nodes().forEach(n -> perNode.merge(n, 1L, Long::sum));
        return perNode;
    }

    @Test
    void requiredRackGangLandsInTheChosenRackOnTheFewestNodes() {
        var result = TopologyAssigner.assign(cluster(), gang(4, 4, request("Required", RACK, "b1", "b1-r2")));

        Placed placed = (Placed) result;
        assertThat(podsPerNode(placed)).isEqualTo(Map.of("b1-r2-n1", 2L, "b1-r2-n2", 2L));
        assertThat(placed.domainLabels()).containsExactly(Map.entry(BLOCK, "b1"), Map.entry(RACK, "b1-r2"));
        assertThat(placed.leafLevel()).isEqualTo(HOSTNAME);
        assertThat(placed.leafValues()).containsExactly("b1-r2-n1", "b1-r2-n2");
        assertThat(placed.assignment().getLevels()).containsExactly(HOSTNAME);
        assertThat(placed.assignment().getDomains()).extracting(Domain::getValues, Domain::getCount)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(List.of("b1-r2-n1"), 2), org.assertj.core.groups.Tuple.tuple(List.of("b1-r2-n2"), 2));
        assertThat(placed.after().nodes().stream().filter(n -> n.name().startsWith("b1-r2")).mapToLong(n -> n.free("nvidia.com/gpu")).sum()).isZero();
    }

    @Test
    void smallGangTakesOneNodeNotTwo() {
        Placed placed = (Placed) TopologyAssigner.assign(cluster(boundPod("busy", "b2-r1-n1", "nvidia.com/gpu", "4")),
                gang(2, 2, request("Required", RACK, "b2", "b2-r1")));

        assertThat(podsPerNode(placed)).as("BestFit: the tightest node that holds both pods").isEqualTo(Map.of("b2-r1-n1", 2L));
    }

    @Test
    void requiredGangThatDoesNotFitItsRackIsRefusedNamingTheRack() {
        var result = TopologyAssigner.assign(cluster(boundPod("busy", "b1-r1-n2", "nvidia.com/gpu", "4")),
                gang(4, 4, request("Required", RACK, "b1", "b1-r1")));

        assertThat(result).isEqualTo(new NotPlaced("topology domain b1/b1-r1 of flavor a100 has room for 3 of 4 pods of pod set main"
                + " (required " + RACK + ")"));
    }

    @Test
    void requiredDomainWithoutNodesIsRefused() {
        var result = TopologyAssigner.assign(cluster(), gang(1, 1, request("Required", RACK, "b9", "b9-r1")));

        assertThat(((NotPlaced) result).reason()).startsWith("topology domain b9/b9-r1 of flavor a100 has room for 0 of 1 pods");
    }

    @Test
    void preferredStaysInItsRackWhenItFits() {
        Placed placed = (Placed) TopologyAssigner.assign(cluster(), gang(4, 4, request("Preferred", RACK, "b2", "b2-r2")));

        assertThat(podsPerNode(placed)).isEqualTo(Map.of("b2-r2-n1", 2L, "b2-r2-n2", 2L));
    }

    @Test
    void preferredSpillsToTheRestOfTheBlockKeepingTheChosenRackFirst() {
        Placed placed = (Placed) TopologyAssigner.assign(cluster(), gang(6, 4, request("Preferred", RACK, "b1", "b1-r2")));

        assertThat(podsPerNode(placed)).isEqualTo(Map.of("b1-r2-n1", 2L, "b1-r2-n2", 2L, "b1-r1-n1", 2L));
        assertThat(placed.domainLabels()).containsExactly(Map.entry(BLOCK, "b1"));
    }

    @Test
    void preferredSpillsAcrossBlocksOnlyWhenTheBlockIsFull() {
        Placed placed = (Placed) TopologyAssigner.assign(cluster(), gang(10, 4, request("Preferred", RACK, "b1", "b1-r1")));

        assertThat(placed.nodes()).filteredOn(n -> n.startsWith("b1")).hasSize(8);
        assertThat(placed.nodes()).filteredOn(n -> n.startsWith("b2")).hasSize(2);
        assertThat(placed.domainLabels()).isEmpty();
    }

    @Test
    void withoutAChosenDomainRequiredPicksTheTightestRackThatHoldsTheGang() {
        ClusterSnapshot snapshot = cluster(boundPod("a", "b1-r1-n1", "nvidia.com/gpu", "8"), boundPod("b", "b1-r1-n2", "nvidia.com/gpu", "4"),
                boundPod("c", "b2-r1-n1", "nvidia.com/gpu", "4"));

        Placed placed = (Placed) TopologyAssigner.assign(snapshot, gang(3, 4, request("Required", RACK)));

        assertThat(podsPerNode(placed)).isEqualTo(Map.of("b2-r1-n1", 1L, "b2-r1-n2", 2L));
    }

    @Test
    void slicesFillEachRackWithWholeSlices() {
        PodSetTopology sliced = request("Required", BLOCK, "b1");
        sliced.setSliceLevel(RACK);
        sliced.setSliceSize(8);
        ClusterSnapshot snapshot = cluster(boundPod("a", "b1-r1-n1", "nvidia.com/gpu", "4"), boundPod("b", "b1-r2-n1", "nvidia.com/gpu", "4"));

        Placed placed = (Placed) TopologyAssigner.assign(snapshot, gang(16, 1, sliced));

        assertThat(placed.nodes()).filteredOn(n -> n.startsWith("b1-r1")).as("one slice of 8 per rack, not 12 + 4").hasSize(8);
        assertThat(placed.nodes()).filteredOn(n -> n.startsWith("b1-r2")).hasSize(8);
    }

    @Test
    void slicesThatDoNotFitWholeAreRefusedCountingSlices() {
        PodSetTopology sliced = request("Required", BLOCK, "b1");
        sliced.setSliceLevel(RACK);
        sliced.setSliceSize(8);
        ClusterSnapshot snapshot = cluster(boundPod("a", "b1-r1-n1", "nvidia.com/gpu", "4"),
                boundPod("b", "b1-r2-n1", "nvidia.com/gpu", "1"), boundPod("c", "b1-r2-n2", "nvidia.com/gpu", "8"));

        var result = TopologyAssigner.assign(snapshot, gang(16, 1, sliced));

        assertThat(result).as("19 pods fit in the block, but rack b1-r2 holds only 7: no second slice")
                .isEqualTo(new NotPlaced("topology domain b1 of flavor a100 has room for 1 of 2 slices of 8 pods of pod set main (required " + BLOCK + ")"));
    }

    @Test
    void topologyThatStopsAtTheRackPinsToTheRackAndReportsFullLevels() {
        PodSetTopology rackOnly = request("Required", RACK, "b2", "b2-r1");
        rackOnly.setLevels(new ArrayList<>(List.of(BLOCK, RACK)));
        var flavor = a100WithTopology();
        flavor.setTopologyLevels(new ArrayList<>(List.of(BLOCK, RACK)));
        PodDemand demand = new PodDemand("main", 3, Map.of("nvidia.com/gpu", 4L, "pods", 1L), NodeRequirement.of(List.of(flavor), List.of()), rackOnly);

        Placed placed = (Placed) TopologyAssigner.assign(cluster(), demand);

        assertThat(placed.nodes()).containsExactly("b2-r1-n1", "b2-r1-n1", "b2-r1-n2");
        assertThat(placed.leafLevel()).isEqualTo(RACK);
        assertThat(placed.assignment().getLevels()).containsExactly(BLOCK, RACK);
        assertThat(placed.assignment().getDomains().get(0).getValues()).containsExactly("b2", "b2-r1");
        assertThat(placed.assignment().getDomains().get(0).getCount()).isEqualTo(3);
    }

    @Test
    void unconstrainedUsesTheFewestNodesAnywhere() {
        ClusterSnapshot snapshot = cluster(boundPod("a", "b1-r1-n1", "nvidia.com/gpu", "2"));

        Placed placed = (Placed) TopologyAssigner.assign(snapshot, gang(3, 2, request("Unconstrained", null)));

        assertThat(podsPerNode(placed)).as("the tightest node that still holds all three").isEqualTo(Map.of("b1-r1-n1", 3L));
    }

    @Test
    void admissionPlacesTopologyPodSetsInTheirDomainAndOthersAsBefore() {
        PodDemand workers = gang(4, 4, request("Required", RACK, "b2", "b2-r2"));
        PodDemand driver = new PodDemand("driver", 1, Map.of("nvidia.com/gpu", 8L, "pods", 1L), NodeRequirement.of(List.of(a100WithTopology()), List.of()));

        var fits = (AdmissionResult.Fits) AttemptAdmission.admit(cluster(), List.of(driver, workers));

        assertThat(fits.topology()).containsOnlyKeys("main");
        assertThat(fits.placements()).containsExactly("b2-r2-n1", "b2-r2-n1", "b2-r2-n2", "b2-r2-n2", "b1-r1-n1");
    }

    @Test
    void admissionReportsTheDomainWhenTheGangNoLongerFits() {
        var result = AttemptAdmission.admit(cluster(boundPod("x", "b2-r2-n2", "nvidia.com/gpu", "1")),
                List.of(gang(4, 4, request("Required", RACK, "b2", "b2-r2"))));

        assertThat(result).isEqualTo(new AdmissionResult.DoesNotFit(
                "topology domain b2/b2-r2 of flavor a100 has room for 3 of 4 pods of pod set main (required " + RACK + ")"));
    }

    @Test
    void withoutAChosenDomainARequiredGangNoRackHoldsNamesTheRoomiestRack() {
        ClusterSnapshot snapshot = cluster(boundPod("a", "b1-r1-n1", "nvidia.com/gpu", "8"), boundPod("b", "b2-r1-n1", "nvidia.com/gpu", "8"),
                boundPod("c", "b2-r2-n1", "nvidia.com/gpu", "8"), boundPod("d", "b1-r2-n1", "nvidia.com/gpu", "4"));

        var result = TopologyAssigner.assign(snapshot, gang(16, 1, request("Required", RACK)));

        assertThat(result).isEqualTo(new NotPlaced("no " + RACK + " domain of flavor a100 has room for the 16 pods of pod set main;"
                + " best: b1/b1-r2 with room for 12 pods"));
    }

    @Test
    void preferredThatFitsNowhereSaysTheWholeTopologyIsShort() {
        var result = TopologyAssigner.assign(cluster(), gang(17, 4, request("Preferred", RACK, "b1", "b1-r1")));

        assertThat(result).isEqualTo(new NotPlaced("the topology of flavor a100 has room for 16 of 17 pods of pod set main (preferred b1/b1-r1)"));
    }
}
