package dev.berth.manager.model;

/** Kueue's preemption policies, shared by withinClusterQueue, reclaimWithinCohort and borrowWithinCohort. */
public enum PreemptionPolicy {
    NEVER("Never"),
    LOWER_PRIORITY("LowerPriority"),
    LOWER_OR_NEWER_EQUAL_PRIORITY("LowerOrNewerEqualPriority"),
    ANY("Any");

    private final String wireName;

    PreemptionPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
