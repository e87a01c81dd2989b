package dev.berth.manager.model;

/** stopPolicy of a ClusterQueue or LocalQueue. */
public enum StopPolicy {
    NONE("None"),
    /** No new reservations; admitted workloads run to completion. */
    HOLD("Hold"),
    /** No new reservations; admitted workloads are evicted. */
    HOLD_AND_DRAIN("HoldAndDrain");

    private final String wireName;

    StopPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean stopsAdmission() {
        return this != NONE;
    }
}
