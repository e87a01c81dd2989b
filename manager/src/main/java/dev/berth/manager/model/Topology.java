package dev.berth.manager.model;

import java.util.List;

/** A Kueue Topology: the node label keys of its levels, outermost first (for example block, rack, hostname). */
public record Topology(String name, List<String> levels) {
    public Topology {
        levels = List.copyOf(levels);
    }
}
