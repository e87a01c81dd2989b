package dev.berth.protocol;

/**
 * Wire names of the read-only diagnosis endpoints: the explain subresource of Workloads, Kueue's
 * visibility API (pending workloads on demand) and Berth's own visibility group (borrowing ledger,
 * worker clusters), with the reasons an explanation layer can give.
 */
public final class VisibilityApi {
    private VisibilityApi() {}

    /** Kueue's on-demand visibility API group; served in both versions. */
    public static final String KUEUE_VISIBILITY_GROUP = "visibility.kueue.x-k8s.io";
    public static final String PENDING_WORKLOADS_SUMMARY = "PendingWorkloadsSummary";

    /** Berth's own visibility group and version, also the apiVersion of an explanation. */
    public static final String BERTH_GROUP = "berth.dev";
    public static final String BERTH_VISIBILITY_GROUP = "visibility.berth.dev";
    public static final String V1ALPHA1 = "v1alpha1";
    public static final String WORKLOAD_EXPLANATION = "WorkloadExplanation";
    public static final String BORROWING_LEDGER = "BorrowingLedger";
    public static final String WORKER_CLUSTER_LIST = "WorkerClusterList";
    /** Quota against the fleet's capacity per flavor and resource (GET .../capacity). */
    public static final String QUOTA_CAPACITY_LIST = "QuotaCapacityList";

    /** The subresource of a Workload that explains it. */
    public static final String EXPLAIN = "explain";

    /** The layers of an explanation, top first. */
    public static final class Layers {
        private Layers() {}

        public static final String ADMISSION = "admission";
        public static final String DISPATCH = "dispatch";
        public static final String WORKER = "worker";
        public static final String RUNTIME = "runtime";
    }

    /** The state of one layer. */
    public static final class States {
        private States() {}

        public static final String OK = "ok";
        public static final String BLOCKED = "blocked";
        public static final String WAITING = "waiting";
        public static final String NOT_REACHED = "notReached";
    }

    /** Why a layer is blocked or waiting (or why it is fine). */
    public static final class Reasons {
        private Reasons() {}

        // admission
        public static final String ADMITTED = "Admitted";
        public static final String QUOTA_RESERVED = "QuotaReserved";
        public static final String FINISHED = "Finished";
        public static final String INACTIVE_WORKLOAD = "WorkloadDeactivated";
        public static final String LOCAL_QUEUE_NOT_FOUND = "LocalQueueNotFound";
        public static final String LOCAL_QUEUE_STOPPED = "LocalQueueStopped";
        public static final String CLUSTER_QUEUE_NOT_FOUND = "ClusterQueueNotFound";
        public static final String CLUSTER_QUEUE_INACTIVE = "ClusterQueueInactive";
        public static final String CLUSTER_QUEUE_STOPPED = "ClusterQueueStopped";
        public static final String NAMESPACE_NOT_SELECTED = "NamespaceNotSelected";
        public static final String INSUFFICIENT_QUOTA = "InsufficientQuota";
        public static final String BORROWING_LIMITED = "BorrowingLimited";
        public static final String PREEMPTION_BLOCKED = "PreemptionBlocked";
        public static final String PREEMPTING = "Preempting";
        public static final String FLAVOR_NOT_ELIGIBLE = "NoEligibleFlavor";
        public static final String QUEUED = "Queued";
        public static final String ADMISSION_CHECK_PENDING = "AdmissionCheckPending";
        public static final String ADMISSION_CHECK_FAILED = "AdmissionCheckFailed";
        // dispatch
        public static final String DISPATCHED = "Dispatched";
        public static final String NO_DISPATCH_NEEDED = "NoDispatchCheck";
        public static final String NO_CLUSTER_AVAILABLE = "NoClusterAvailable";
        public static final String NOT_DISPATCHED_YET = "NotDispatchedYet";
        // per-cluster rejections (named hooks: breaker, cordon and lease come with the failover work)
        public static final String CLUSTER_NOT_CONNECTED = "ClusterNotConnected";
        public static final String CLUSTER_CORDONED = "ClusterCordoned";
        public static final String CLUSTER_BREAKER_OPEN = "ClusterBreakerOpen";
        public static final String CLUSTER_LEASE_LOST = "ClusterLeaseLost";
        public static final String CLUSTER_HEARTBEAT_STALE = "ClusterHeartbeatStale";
        /** The cluster's health (ClusterHealthPolicy) is Unreachable or AgentLost. */
        public static final String CLUSTER_UNHEALTHY = "ClusterUnhealthy";
        public static final String FLAVOR_MISSING = "FlavorMissing";
        public static final String NO_CAPACITY = "NoCapacity";
        public static final String NOT_YET_INCREMENTAL = "NotYetIncremental";
        public static final String OTHER = "Other";
        // worker
        public static final String WORKER_ADMITTED = "WorkerAdmitted";
        public static final String NO_NODE_MATCHES_FLAVOR = "NoNodeMatchesFlavor";
        public static final String TAINT_NOT_TOLERATED = "TaintNotTolerated";
        public static final String INSUFFICIENT_NODE_CAPACITY = "InsufficientNodeCapacity";
        public static final String WORKER_PENDING = "WorkerPending";
        public static final String WORKER_NOT_REPORTED = "WorkerNotReported";
        // runtime
        public static final String PODS_RUNNING = "PodsRunning";
        public static final String PODS_FAILING = "PodsFailing";
        public static final String SUCCEEDED = "Succeeded";
        public static final String FAILED = "Failed";
        public static final String NOT_REACHED = "NotReached";
    }
}
