package dev.berth.protocol;

/** core/v1 Event names: the kind, the event types, and the reasons Kueue's recorders use for workloads. */
public final class Events {
    private Events() {}

    public static final String KIND = "Event";
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    /** The reporting component, as Kueue's controller manager names its admission events. */
    public static final String COMPONENT = "kueue-admission";

    /** Event reasons on Workloads. */
    public static final class Reasons {
        private Reasons() {}

        public static final String QUOTA_RESERVED = "QuotaReserved";
        public static final String ADMITTED = "Admitted";
        public static final String PENDING = "Pending";
        public static final String PREEMPTED = "Preempted";
        public static final String EVICTED = "Evicted";
        public static final String FINISHED = "Finished";
    }

    /** Event reasons Kueue's job reconciler records on the job (jobframework's Reason* constants). */
    public static final class JobReasons {
        private JobReasons() {}

        public static final String CREATED_WORKLOAD = "CreatedWorkload";
        public static final String STARTED = "Started";
        public static final String STOPPED = "Stopped";
        public static final String FINISHED_WORKLOAD = "FinishedWorkload";
        public static final String UPDATED_ADMISSION_CHECK = "UpdatedAdmissionCheck";
    }
}
