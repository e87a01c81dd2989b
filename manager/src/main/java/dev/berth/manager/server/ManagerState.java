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
 * reflects the admission decisions it caused (all of them, unless the pass is longer than one slice).
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

    /**
     * Where the rest of a long scheduling pass runs, one slice per task, behind the events that arrived
     * meanwhile; the state thread. Null (a follower's API, tests) runs every pass whole.
     */
    java.util.concurrent.Executor passContinuation;
    private boolean continuationQueued;

    /**
     * Schedules, then dispatches what was admitted. The first slice of the pass runs here, so a small
     * installation's pass (one slice) is decided before the write is answered; a pass that needs more
     * slices goes on in later state-thread tasks (see {@link AdmissionController#scheduleSlice()}).
     */
    void reschedule() {
        scheduleSlice();
        if (dispatcher != null) dispatcher.reconcile();
        if (passContinuation != null && controller.hasMoreToSchedule() && !continuationQueued) {
            continuationQueued = true;
            try {
                passContinuation.execute(() -> {
                    continuationQueued = false;
                    reschedule();
                });
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                continuationQueued = false; // the manager is shutting down; a restart schedules from scratch
            }
        }
    }

    /** One slice of the current pass, or the whole pass where nothing would run the rest. */
    void scheduleSlice() {
        if (passContinuation == null) controller.schedule(); else controller.scheduleSlice();
    }

    Optional<ObjectNode> find(String resource, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(StoredObject::object);
    }
}
