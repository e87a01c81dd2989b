package dev.berth.manager.dispatch;

import java.util.List;

/**
 * Where one pod set goes inside a cluster's flavor: the domain's values outermost first down to the
 * level it was chosen at (empty: the whole flavor, as for Unconstrained or a Preferred request that
 * must spread), that level's label (null for the whole flavor), how many levels above the requested
 * one it was found (Preferred falls back upwards; 0 when at the requested level), how many of the pod
 * set's pods fit in the domain and how many pods' room is left over (BestFit picks the least).
 */
public record DomainChoice(String podSet, String flavor, TopologyRequest request, List<String> levels, String level,
                           List<String> domain, int levelsUp, long fits, long spare) {
    public DomainChoice {
        levels = List.copyOf(levels);
        domain = List.copyOf(domain);
    }

    public boolean spread() {
        return domain.isEmpty();
    }

    /** "block-1/rack-2", or "the whole flavor". */
    public String describe() {
        return domain.isEmpty() ? "the whole flavor " + flavor : String.join("/", domain);
    }
}
