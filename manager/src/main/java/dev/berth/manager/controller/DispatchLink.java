package dev.berth.manager.controller;

import dev.berth.manager.model.WorkloadKey;
import java.util.Objects;

/**
 * The one edge from admission to dispatch that the root closes after both exist. The controller's status
 * writer and the pass runner are built before the dispatcher (the dispatcher reads the controller), so they
 * hold this link; {@link BerthManager} registers the dispatcher once it is recovered, at the point where a
 * leader's dispatch starts hearing of changes. Until then it is {@link DispatchPort#NONE}. State thread only.
 */
final class DispatchLink implements DispatchPort {
    private DispatchPort dispatch = DispatchPort.NONE;

    /** Connects the dispatcher; once only. */
    void register(DispatchPort dispatcher) {
        if (dispatch != DispatchPort.NONE) throw new IllegalStateException("dispatch is registered already");
        dispatch = Objects.requireNonNull(dispatcher);
    }

    @Override
    public void workloadChanged(WorkloadKey key) {
        dispatch.workloadChanged(key);
    }

    @Override
    public boolean roundsStart() {
        return dispatch.roundsStart();
    }

    @Override
    public boolean round() {
        return dispatch.round();
    }

    @Override
    public boolean hasRunningCopy(WorkloadKey key) {
        return dispatch.hasRunningCopy(key);
    }
}
