package dev.berth.manager.ha;

import dev.berth.manager.clusters.StandbyClients;

/**
 * What a follower does to be ready to lead (warm standby): keep read-only worker-cluster clients that a new
 * leader adopts, and now and then rehearse the read-only part of taking office (a state recovery into a
 * throwaway controller, {@code dev.berth.manager.controller.TakeoverRehearsal}).
 */
public record StandbyWork(StandbyClients clients, Runnable rehearsal) {
    /** No standby: a new leader builds its clients and recovers cold. */
    public static final StandbyWork NONE = new StandbyWork(StandbyClients.NONE, () -> {});

    public boolean idle() {
        return this == NONE;
    }
}
