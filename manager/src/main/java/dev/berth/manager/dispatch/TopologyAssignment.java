package dev.berth.manager.dispatch;

import java.util.List;

/**
 * Where a worker's agent put one pod set's pods (Kueue's topology assignment, as the agent reports it):
 * the level keys the values are given for, and per domain at those levels its values and pod count.
 *
 * @param podSet  the pod set's name
 * @param levels  the node label keys, highest first (only {@code kubernetes.io/hostname} when that is the lowest level)
 * @param domains the domains that got pods, each with one value per level
 */
public record TopologyAssignment(String podSet, List<String> levels, List<Domain> domains) {
    public TopologyAssignment {
        levels = List.copyOf(levels);
        domains = List.copyOf(domains);
    }

    /** One domain: its values at the assignment's levels and how many pods it got. */
    public record Domain(List<String> values, int count) {
        public Domain {
            values = List.copyOf(values);
        }
    }

    /** The pods the assignment places. */
    public int pods() {
        return domains.stream().mapToInt(Domain::count).sum();
    }
}
