package dev.berth.manager.model;

/** Whether the flavor search stops at a flavor that needs borrowing or preemption (Kueue v1beta2 spelling). */
public record FlavorFungibility(Policy whenCanBorrow, Policy whenCanPreempt, Preference preference) {
    public static final FlavorFungibility DEFAULT =
            new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.TRY_NEXT_FLAVOR, null);

    public enum Policy {
        MAY_STOP_SEARCH("MayStopSearch"),
        TRY_NEXT_FLAVOR("TryNextFlavor");

        private final String wireName;

        Policy(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public enum Preference {
        BORROWING_OVER_PREEMPTION("BorrowingOverPreemption"),
        PREEMPTION_OVER_BORROWING("PreemptionOverBorrowing");

        private final String wireName;

        Preference(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
