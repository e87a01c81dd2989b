package dev.berth.manager.model;

/**
 * Quota of one resource in one flavor, in canonical units (see {@link Quantity}).
 * A null limit means "no limit".
 */
public record ResourceQuota(String resource, long nominal, Long borrowingLimit, Long lendingLimit) {
    public ResourceQuota {
        if (nominal < 0) throw new IllegalArgumentException("nominalQuota must be non-negative");
    }
}
