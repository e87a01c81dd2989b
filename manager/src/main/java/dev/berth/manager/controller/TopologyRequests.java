package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DomainChoice;
import dev.berth.manager.dispatch.TopologyRequest;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.manager.objects.FlavorTopologyRules;
import dev.berth.manager.objects.PodSetTopologyRequests;
import dev.berth.manager.objects.TopologyDecoder;
import dev.berth.protocol.TopologyApi;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.PodSetTopology;
import java.util.ArrayList;
import java.util.List;

/**
 * Topology Aware Scheduling between what the manager stores and what it sends: a pod set's stored
 * topologyRequest for placement, a flavor's Topology levels for the catalogue agents read, and the
 * domain placement chose for the dispatched pod set.
 */
final class TopologyRequests {
    private TopologyRequests() {}

    /** spec.podSets[name].topologyRequest of a stored Workload as placement reads it; null when none. */
    static TopologyRequest of(ObjectNode workload, String podSet) {
        for (JsonNode candidate : workload.path("spec").path("podSets")) {
            if (candidate.path("name").asText().equals(podSet)) return PodSetTopologyRequests.read(candidate.path("topologyRequest"));
        }
        return null;
    }

    /** Fills topologyName and topologyLevels of a flavor that names a stored Topology. */
    static void describeTopology(ManagerState state, ObjectNode flavor, FlavorDefinition definition) {
        String topology = FlavorTopologyRules.topologyName(flavor);
        if (topology == null) return;
        definition.setTopologyName(topology);
        state.find(Resources.TOPOLOGIES.resource(), "", topology)
                .ifPresent(stored -> definition.setTopologyLevels(TopologyDecoder.levels(stored)));
    }

    /** The PodSetTopology sent with a dispatched pod set: its request, the levels, and the chosen domain; null without a request. */
    static PodSetTopology placement(ManagerState state, ObjectNode workload, PodSetAssignment assignment, List<DomainChoice> domains) {
        TopologyRequest request = of(workload, assignment.name());
        if (request == null) return null;
        PodSetTopology topology = new PodSetTopology();
        topology.setMode(switch (request.mode()) {
            case REQUIRED -> TopologyApi.MODE_REQUIRED;
            case PREFERRED -> TopologyApi.MODE_PREFERRED;
            case UNCONSTRAINED -> TopologyApi.MODE_UNCONSTRAINED;
        });
        topology.setLevel(request.level());
        if (request.isSliced()) {
            topology.setSliceLevel(request.sliceLevel());
            topology.setSliceSize(request.sliceSize());
        }
        DomainChoice chosen = domains.stream().filter(d -> d.podSet().equals(assignment.name())).findFirst().orElse(null);
        if (chosen != null) {
            topology.setLevels(new ArrayList<>(chosen.levels()));
            topology.setDomain(new ArrayList<>(chosen.domain()));
        } else {
            levelsOf(state, assignment).ifPresent(topology::setLevels);
        }
        return topology;
    }

    private static java.util.Optional<List<String>> levelsOf(ManagerState state, PodSetAssignment assignment) {
        for (String flavor : assignment.flavors().values()) {
            var stored = state.find(Resources.RESOURCE_FLAVORS.resource(), "", flavor);
            String topology = stored.map(FlavorTopologyRules::topologyName).orElse(null);
            if (topology == null) continue;
            var levels = state.find(Resources.TOPOLOGIES.resource(), "", topology).map(TopologyDecoder::levels);
            if (levels.isPresent()) return levels;
        }
        return java.util.Optional.empty();
    }
}
