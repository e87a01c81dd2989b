package dev.berth.manager.scheduling;

/**
 * A rule of Kueue's fairSharing.preemptionStrategies: when a workload of a ClusterQueue with a high
 * dominant resource share may be preempted for a preemptor under fair sharing.
 */
public enum FairSharingStrategy {
    LESS_THAN_OR_EQUAL_TO_FINAL_SHARE("LessThanOrEqualToFinalShare"),
    LESS_THAN_INITIAL_SHARE("LessThanInitialShare");

    private final String wireName;

    FairSharingStrategy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
