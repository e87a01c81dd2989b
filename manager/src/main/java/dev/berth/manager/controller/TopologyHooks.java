package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ForwardingObjectHooks;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.objects.FlavorTopologyRules;
import dev.berth.manager.objects.TopologyDecoder;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;

/**
 * Topology Aware Scheduling's kinds at the API: a Topology is validated as Kueue's CRD does and, once
 * stored or deleted, the admission controller knows it exists (Kueue's TopologyNotFound) and the flavor catalogue (which carries each flavor's levels) is sent to the agents
 * again; a ResourceFlavor's spec.topologyName is checked by {@link FlavorTopologyRules}.
 */
final class TopologyHooks implements ObjectHooks {
    private final ManagerState state;
    private final MultiKueueHooks multiKueue;
    private List<String> lastWarnings = List.of();

    TopologyHooks(ManagerState state, MultiKueueHooks multiKueue) {
        this.state = state;
        this.multiKueue = multiKueue;
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        lastWarnings = ApiVersionConverter.toV1beta2(incoming);
        TopologyDecoder.decode(incoming, existing.map(StoredObject::object));
        return incoming;
    }

    @Override
    public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return lastWarnings;
    }

    @Override
    public void stored(StoredObject object) {
        state.controller.applyTopology(object.key().name());
        multiKueue.flavorsChanged();
    }

    @Override
    public void deleted(StoredObject object) {
        state.controller.deleteTopology(object.key().name());
        multiKueue.flavorsChanged();
    }

    /** The ResourceFlavor hooks with the spec.topologyName rules checked first. */
    static ObjectHooks flavorRules(ObjectHooks flavors) {
        return new ForwardingObjectHooks(flavors) {
            @Override
            public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
                ObjectNode admitted = delegate().admit(incoming, existing, op);
                FlavorTopologyRules.check(admitted, existing.map(StoredObject::object));
                return admitted;
            }
        };
    }
}
