package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.Map;

/**
 * What the dispatcher knows about one worker cluster at a moment: whether the manager reaches it,
 * whether an operator cordoned it, when its agent last renewed its heartbeat (null: never), per
 * flavor of the catalogue the free capacity its agent reported, its health (null: not assessed)
 * and its circuit breaker's state.
 */
public record ClusterView(String name, boolean connected, boolean cordoned, Instant lastHeartbeat,
                          Map<String, FlavorCapacity> flavors, ClusterHealth health, BreakerState breaker) {
    public ClusterView {
        flavors = Map.copyOf(flavors);
        if (breaker == null) breaker = BreakerState.CLOSED;
    }

    /** A view without a health assessment and with a closed breaker. */
    public ClusterView(String name, boolean connected, boolean cordoned, Instant lastHeartbeat, Map<String, FlavorCapacity> flavors) {
        this(name, connected, cordoned, lastHeartbeat, flavors, null, BreakerState.CLOSED);
    }

    public ClusterView withFlavors(Map<String, FlavorCapacity> adjusted) {
        return new ClusterView(name, connected, cordoned, lastHeartbeat, adjusted, health, breaker);
    }
}
