package dev.berth.manager.dispatch;

import java.time.Instant;
import java.util.Map;

/**
 * What the dispatcher knows about one worker cluster at a moment: whether the manager reaches it,
 * whether an operator cordoned it, when its agent last renewed its heartbeat (null: never), and per
 * flavor of the catalogue the free capacity its agent reported.
 */
public record ClusterView(String name, boolean connected, boolean cordoned, Instant lastHeartbeat,
                          Map<String, FlavorCapacity> flavors) {
    public ClusterView {
        flavors = Map.copyOf(flavors);
    }
}
