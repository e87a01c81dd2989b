package dev.berth.agent;

import static dev.berth.agent.TopologyFixtures.BLOCK;
import static dev.berth.agent.TopologyFixtures.HOSTNAME;
import static dev.berth.agent.TopologyFixtures.RACK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.PodSetTopologyAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyPinningTest {
    private static TopologyPlacement.Placed placed(Map<String, String> domainLabels, List<String> hosts) {
        Map<String, String> ordered = new LinkedHashMap<>(domainLabels);
        return new TopologyPlacement.Placed(ClusterSnapshot.of(List.of(), List.of()), hosts,
                new PodSetTopologyAssignment("main", List.of(HOSTNAME), List.of()), ordered, HOSTNAME, hosts, hosts);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> terms(Map<String, Object> template) {
        Map<String, Object> spec = (Map<String, Object>) template.get("spec");
        Map<String, Object> required = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) spec.get("affinity"))
                .get("nodeAffinity")).get("requiredDuringSchedulingIgnoredDuringExecution");
        return (List<Map<String, Object>>) required.get("nodeSelectorTerms");
    }

    @Test
    void podsGetTheDomainLabelsAsNodeSelectorAndTheAssignedHostnamesAsRequiredAffinity() {
        Map<String, Object> template = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("nodeSelector",
                new LinkedHashMap<>(Map.of("nvidia.com/gpu.product", "A100"))))));

        TopologyPinning.pin(template, placed(Map.of(BLOCK, "b1", RACK, "b1-r2"), List.of("n3", "n4")));

        @SuppressWarnings("unchecked")
        Map<String, Object> selector = (Map<String, Object>) ((Map<String, Object>) template.get("spec")).get("nodeSelector");
        assertThat(selector).containsEntry("nvidia.com/gpu.product", "A100").containsEntry(BLOCK, "b1").containsEntry(RACK, "b1-r2");
        assertThat(terms(template)).singleElement().isEqualTo(Map.of("matchExpressions",
                List.of(Map.of("key", HOSTNAME, "operator", "In", "values", List.of("n3", "n4")))));
    }

    @Test
    void theTemplatesOwnAffinityTermsEachGetTheHostnameConstraint() {
        Map<String, Object> own = new LinkedHashMap<>(Map.of("matchExpressions",
                new ArrayList<>(List.of(Map.of("key", "zone", "operator", "In", "values", List.of("z1"))))));
        Map<String, Object> template = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("affinity",
                new LinkedHashMap<>(Map.of("nodeAffinity", new LinkedHashMap<>(Map.of("requiredDuringSchedulingIgnoredDuringExecution",
                        new LinkedHashMap<>(Map.of("nodeSelectorTerms", new ArrayList<>(List.of(own))))))))))));

        TopologyPinning.pin(template, placed(Map.of(), List.of("n1", "n9")));

        assertThat(terms(template)).singleElement().satisfies(term -> assertThat((List<?>) term.get("matchExpressions")).hasSize(2));
    }

    @Test
    void aSingleNodeIsPinnedByNodeSelectorAloneAndNoPlacementChangesNothing() {
        Map<String, Object> template = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>()));

        TopologyPinning.pin(template, placed(Map.of(BLOCK, "b1", RACK, "b1-r1", HOSTNAME, "n1"), List.of("n1")));
        TopologyPinning.pin(template, null);

        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) template.get("spec");
        assertThat(spec).doesNotContainKey("affinity");
        assertThat(spec.get("nodeSelector")).isEqualTo(Map.of(BLOCK, "b1", RACK, "b1-r1", HOSTNAME, "n1"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachPodOfAPodGroupIsPinnedToItsOwnAssignedNode() {
        var spec = Templates.spec("att-1", 1, Templates.podList(3), Fixtures.a100(), Templates.podSet("main", 3, "1", "a100"));
        var owner = new AttemptOwner("team-b", "group", "uid-1", "att-1", "group");

        List<RenderedObject> pods = TemplateRenderer.render(owner, spec,
                Map.of("main", placed(Map.of(BLOCK, "b1"), List.of("n2", "n2", "n3"))), Map.of());

        assertThat(pods).extracting(p -> (Map<String, Object>) ((Map<String, Object>) p.body().get("spec")).get("nodeSelector"))
                .extracting(selector -> selector.get(HOSTNAME) + "@" + selector.get(BLOCK))
                .containsExactly("n2@b1", "n2@b1", "n3@b1");
    }
}
