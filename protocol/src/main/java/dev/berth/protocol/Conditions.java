package dev.berth.protocol;

/** Condition types and reasons, with Kueue's spelling. */
public final class Conditions {
    private Conditions() {}

    // Workload condition types
    public static final String QUOTA_RESERVED = "QuotaReserved";
    public static final String ADMITTED = "Admitted";
    public static final String EVICTED = "Evicted";
    public static final String PREEMPTED = "Preempted";
    public static final String REQUEUED = "Requeued";
    public static final String FINISHED = "Finished";
    public static final String PODS_READY = "PodsReady";

    // Queue condition type
    public static final String ACTIVE = "Active";

    /** MultiKueueCluster condition: Berth's view of the cluster's health (API reachability and agent heartbeat). */
    public static final String BERTH_HEALTHY = "berth.dev/Healthy";
    /** MultiKueueCluster condition: an operator cordoned (or is draining) the cluster; no new dispatch goes there. */
    public static final String BERTH_CORDONED = "berth.dev/Cordoned";

    /** Condition reasons. */
    public static final class Reasons {
        private Reasons() {}

        public static final String PENDING = "Pending";
        public static final String QUOTA_RESERVED = "QuotaReserved";
        public static final String ADMITTED = "Admitted";
        public static final String NO_RESERVATION = "NoReservation";
        public static final String PREEMPTED = "Preempted";
        public static final String IN_CLUSTER_QUEUE = "InClusterQueue";
        public static final String IN_COHORT_RECLAMATION = "InCohortReclamation";
        public static final String IN_COHORT_FAIR_SHARING = "InCohortFairSharing";
        public static final String IN_COHORT_RECLAIM_WHILE_BORROWING = "InCohortReclaimWhileBorrowing";
        public static final String CLUSTER_QUEUE_STOPPED = "ClusterQueueStopped";
        public static final String LOCAL_QUEUE_STOPPED = "LocalQueueStopped";
        public static final String ADMISSION_CHECK = "AdmissionCheck";
        public static final String DEACTIVATED = "Deactivated";
        /** Kueue's underlying cause when spec.maximumExecutionTimeSeconds ran out. */
        public static final String MAXIMUM_EXECUTION_TIME_EXCEEDED = "MaximumExecutionTimeExceeded";
        public static final String INACTIVE_WORKLOAD = "InactiveWorkload";
        // waitForPodsReady: the PodsReady condition's reasons, and the eviction and deactivation it causes
        /** PodsReady=False: the admitted workload's pods have not all become ready yet. */
        public static final String WAIT_FOR_START = "WaitForStart";
        /** PodsReady=False: the pods were all ready once and no longer are. */
        public static final String WAIT_FOR_RECOVERY = "WaitForRecovery";
        /** PodsReady=True: all pods became ready for the first time in this admission. */
        public static final String STARTED = "Started";
        /** PodsReady=True: all pods are ready again after some were not. */
        public static final String RECOVERED = "Recovered";
        /** Evicted reason: the pods were not all ready within waitForPodsReady's timeout or recoveryTimeout. */
        public static final String PODS_READY_TIMEOUT = "PodsReadyTimeout";
        /** Kueue's underlying cause of a deactivation after requeuingStrategy.backoffLimitCount requeues. */
        public static final String REQUEUING_LIMIT_EXCEEDED = "RequeuingLimitExceeded";
        /** QuotaReserved=False reason while blockAdmission waits for admitted workloads' pods to be ready. */
        public static final String WAITING_FOR_PODS_READY = "WaitingForPodsReady";
        public static final String SUCCEEDED = "Succeeded";
        public static final String FAILED = "Failed";
        public static final String READY = "Ready";
        public static final String STOPPED = "Stopped";
        /** A ClusterQueue whose deletion waits for the resource-in-use finalizer: it admits nothing new. */
        public static final String TERMINATING = "Terminating";
        public static final String FLAVOR_NOT_FOUND = "FlavorNotFound";
        public static final String TOPOLOGY_NOT_FOUND = "TopologyNotFound";
        public static final String ADMISSION_CHECK_NOT_FOUND = "AdmissionCheckNotFound";
        public static final String ADMISSION_CHECK_INACTIVE = "AdmissionCheckInactive";
        public static final String CLUSTER_QUEUE_DOES_NOT_EXIST = "ClusterQueueDoesNotExist";
        /** A LocalQueue's Active reason when its ClusterQueue exists but is not active. */
        public static final String CLUSTER_QUEUE_IS_INACTIVE = "ClusterQueueIsInactive";
        // MultiKueueCluster / AdmissionCheck Active reasons
        public static final String CONNECTED = "Connected";
        public static final String CLIENT_CONNECTION_FAILED = "ClientConnectionFailed";
        public static final String ACTIVE = "Active";
        public static final String BAD_CONFIG = "BadConfig";
        // berth.dev/Healthy reasons: the cluster health states
        public static final String HEALTHY = "Healthy";
        public static final String DEGRADED = "Degraded";
        public static final String UNREACHABLE = "Unreachable";
        public static final String AGENT_LOST = "AgentLost";
        // berth.dev/Cordoned reasons
        public static final String CORDONED = "Cordoned";
        public static final String DRAINING = "Draining";
        public static final String UNCORDONED = "Uncordoned";
        /** Workload Evicted reason: its worker cluster was lost for longer than workerLostTimeout. */
        public static final String CLUSTER_LOST = "ClusterLost";
        /** Workload Evicted reason: an operator drained its worker cluster. */
        public static final String CLUSTER_DRAINED = "ClusterDrained";
        // Redispatch after a lost agent (events on the MultiKueueCluster, RedispatchGate verdicts)
        /** A workload evicted from a cluster whose agent is lost waits for the old attempt's pods there to stop. */
        public static final String OLD_PODS_RUNNING = "OldPodsRunning";
        /** The old attempt's pods are confirmed stopped and its objects deleted: the workload may go elsewhere. */
        public static final String OLD_PODS_STOPPED = "OldPodsStopped";
        /** The cluster stopped answering and the old attempt's lease ran out: its agent stops it. */
        public static final String OLD_LEASE_EXPIRED = "OldAttemptLeaseExpired";
        /** The bounded wait for the old attempt's pods ran out: the workload goes elsewhere anyway. */
        public static final String POD_STOP_WAIT_EXCEEDED = "PodStopWaitExceeded";
        /**
         * A create the cluster never acknowledged (it timed out, or the attempt went missing from listings) may still
         * arrive there: the workload is not dispatched elsewhere before that copy's lease has surely run out.
         */
        public static final String DISPATCH_UNCONFIRMED = "DispatchUnconfirmed";
    }

    /** States of one admission check on a workload. */
    public static final class CheckStates {
        private CheckStates() {}

        public static final String PENDING = "Pending";
        public static final String READY = "Ready";
        public static final String RETRY = "Retry";
        public static final String REJECTED = "Rejected";
    }
}
