package dev.berth.manager.security;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The current {@link RbacPolicy}, rebuilt from the store whenever an RBAC object is written, and
 * readable from any thread. Its hooks validate RBAC objects before they are stored.
 */
public final class RbacPolicySource {
    private final ObjectStore store;
    private volatile RbacPolicy current = RbacPolicy.builtInOnly();

    public RbacPolicySource(ObjectStore store) {
        this.store = store;
        reload();
    }

    public RbacPolicy current() {
        return current;
    }

    public void reload() {
        List<RbacRole> roles = new ArrayList<>();
        List<RbacBinding> bindings = new ArrayList<>();
        for (StoredObject o : store.list(RbacResources.ROLES.resource(), null)) roles.add(RbacDecoder.role(o.object()));
        for (StoredObject o : store.list(RbacResources.CLUSTER_ROLES.resource(), null)) roles.add(RbacDecoder.role(o.object()));
        for (StoredObject o : store.list(RbacResources.ROLE_BINDINGS.resource(), null)) bindings.add(RbacDecoder.binding(o.object()));
        for (StoredObject o : store.list(RbacResources.CLUSTER_ROLE_BINDINGS.resource(), null)) bindings.add(RbacDecoder.binding(o.object()));
        current = new RbacPolicy(roles, bindings);
    }

    /** Validates roles and bindings on admit; rebuilds the policy after every write. */
    public ObjectHooks hooks(boolean binding) {
        return new ObjectHooks() {
            @Override
            public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
                if (binding) RbacDecoder.binding(incoming);
                else RbacDecoder.role(incoming);
                return incoming;
            }

            @Override
            public void stored(StoredObject object) {
                reload();
            }

            @Override
            public void deleted(StoredObject object) {
                reload();
            }
        };
    }
}
