package dev.berth.manager.core;

import java.util.List;

/** flavorsReservation / flavorsUsage entry of a queue's status: per resource, the total and the borrowed part. */
public record FlavorUsage(String flavor, List<ResourceUsage> resources) {
    public FlavorUsage {
        resources = List.copyOf(resources);
    }

    /** Amounts in canonical units (see {@link dev.berth.manager.model.Quantity}). */
    public record ResourceUsage(String resource, long total, long borrowed) {
    }
}
