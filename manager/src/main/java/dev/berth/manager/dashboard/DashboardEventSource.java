package dev.berth.manager.dashboard;

import java.util.List;

/**
 * Where the dashboard reads the event stream from. Called on the state thread while a snapshot is
 * built, so an implementation may read the store directly but must not block on anything else.
 */
@FunctionalInterface
public interface DashboardEventSource {
    /** The newest events first, at most {@code limit} of them. */
    List<DashboardEvent> newest(int limit);

    static DashboardEventSource none() {
        return limit -> List.of();
    }
}
