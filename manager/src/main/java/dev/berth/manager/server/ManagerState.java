package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;

/**
 * What every kind's hooks share: the store and the admission controller. Lives on the state thread.
 * After every accepted change the hooks call {@link #reschedule()}, so an answer to a write already
 * reflects the admission decisions it caused.
 */
final class ManagerState {
    final ObjectStore store;
    AdmissionController controller;
    /** Null until dispatch is wired. */
    Dispatcher dispatcher;
    /** Null until dispatch is wired. */
    MultiKueueHooks multiKueue;
    /** The RBAC policy, rebuilt from the store when a role or binding is written. */
    final dev.berth.manager.security.RbacPolicySource rbac;

    ManagerState(ObjectStore store) {
        this.store = store;
        this.rbac = new dev.berth.manager.security.RbacPolicySource(store);
    }

    void reschedule() {
        controller.schedule();
        if (dispatcher != null) dispatcher.reconcile();
    }

    Optional<ObjectNode> find(String resource, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(StoredObject::object);
    }
}
