package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kueue's rules for ResourceFlavor spec.topologyName (v1beta2): a Topology's name, only with at
 * least one node label (the flavor's nodes must be told apart), and fixed once set.
 */
public final class FlavorTopologyRules {
    static final String NEEDS_NODE_LABEL = "at least one nodeLabel is required when topology is set";
    static final String IMMUTABLE = "topologyName is immutable when topologyName is set";

    private FlavorTopologyRules() {}

    /** The flavor's spec.topologyName, or null. */
    public static String topologyName(ObjectNode flavor) {
        String name = flavor.path("spec").path("topologyName").asText(null);
        return name == null || name.isEmpty() ? null : name;
    }

    /** Throws a 422 naming the field when the flavor breaks a rule; an update is checked against what is stored. */
    public static void check(ObjectNode incoming, Optional<ObjectNode> existing) {
        List<FieldCause> causes = new ArrayList<>();
        String name = incoming.path("metadata").path("name").asText("");
        String topology = topologyName(incoming);
        if (incoming.path("spec").has("topologyName") && !incoming.path("spec").path("topologyName").isNull()) {
            ObjectNames.validateName("spec.topologyName", incoming.path("spec").path("topologyName").asText(""), causes);
        }
        if (topology != null && incoming.path("spec").path("nodeLabels").size() == 0) {
            causes.add(FieldCause.invalid("spec", "Invalid value: \"object\": " + NEEDS_NODE_LABEL));
        }
        String before = existing.map(FlavorTopologyRules::topologyName).orElse(null);
        if (before != null && !before.equals(topology)) {
            causes.add(FieldCause.invalid("spec", "Invalid value: \"object\": " + IMMUTABLE));
        }
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(KueueApi.RESOURCE_FLAVOR, name, causes);
    }
}
