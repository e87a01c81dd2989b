package dev.berth.protocol;

/**
 * Prometheus metric names and label keys as scraped from {@code GET /metrics}. The {@code kueue_*}
 * and {@code multikueue_*} names and their labels are Kueue's, so dashboards and alerts written for
 * Kueue work unchanged; {@code berth_*} are Berth's own.
 */
public final class MetricNames {
    private MetricNames() {}

    // ---- Kueue's scheduler and queue metrics ----------------------------------------------
    public static final String PENDING_WORKLOADS = "kueue_pending_workloads";
    public static final String ADMISSION_WAIT_TIME = "kueue_admission_wait_time_seconds";
    public static final String QUOTA_RESERVED_WAIT_TIME = "kueue_quota_reserved_wait_time_seconds";
    public static final String ADMISSION_CHECKS_WAIT_TIME = "kueue_admission_checks_wait_time_seconds";
    public static final String ADMITTED_WORKLOADS = "kueue_admitted_workloads_total";
    public static final String QUOTA_RESERVED_WORKLOADS = "kueue_quota_reserved_workloads_total";
    public static final String EVICTED_WORKLOADS = "kueue_evicted_workloads_total";
    public static final String PREEMPTED_WORKLOADS = "kueue_preempted_workloads_total";
    public static final String ADMISSION_ATTEMPTS = "kueue_admission_attempts_total";
    public static final String ADMISSION_ATTEMPT_DURATION = "kueue_admission_attempt_duration_seconds";
    public static final String CLUSTER_QUEUE_STATUS = "kueue_cluster_queue_status";
    public static final String CLUSTER_QUEUE_RESOURCE_USAGE = "kueue_cluster_queue_resource_usage";
    public static final String CLUSTER_QUEUE_RESOURCE_RESERVATION = "kueue_cluster_queue_resource_reservation";
    public static final String CLUSTER_QUEUE_NOMINAL_QUOTA = "kueue_cluster_queue_nominal_quota";
    public static final String CLUSTER_QUEUE_BORROWING_LIMIT = "kueue_cluster_queue_borrowing_limit";
    public static final String CLUSTER_QUEUE_LENDING_LIMIT = "kueue_cluster_queue_lending_limit";
    public static final String RESERVING_ACTIVE_WORKLOADS = "kueue_reserving_active_workloads";
    public static final String ADMITTED_ACTIVE_WORKLOADS = "kueue_admitted_active_workloads";
    public static final String FINISHED_WORKLOADS_TOTAL = "kueue_finished_workloads_total";
    public static final String CLUSTER_QUEUE_WEIGHTED_SHARE = "kueue_cluster_queue_weighted_share";
    public static final String COHORT_WEIGHTED_SHARE = "kueue_cohort_weighted_share";

    // ---- Kueue's LocalQueue metrics (its LocalQueueMetrics feature gate) ---------------------
    public static final String LOCAL_QUEUE_PENDING_WORKLOADS = "kueue_local_queue_pending_workloads";
    public static final String LOCAL_QUEUE_RESERVING_ACTIVE_WORKLOADS = "kueue_local_queue_reserving_active_workloads";
    public static final String LOCAL_QUEUE_ADMITTED_ACTIVE_WORKLOADS = "kueue_local_queue_admitted_active_workloads";
    public static final String LOCAL_QUEUE_FINISHED_WORKLOADS_TOTAL = "kueue_local_queue_finished_workloads_total";
    public static final String LOCAL_QUEUE_STATUS = "kueue_local_queue_status";
    public static final String LOCAL_QUEUE_RESOURCE_RESERVATION = "kueue_local_queue_resource_reservation";
    public static final String LOCAL_QUEUE_RESOURCE_USAGE = "kueue_local_queue_resource_usage";
    public static final String LOCAL_QUEUE_QUOTA_RESERVED_WORKLOADS = "kueue_local_queue_quota_reserved_workloads_total";
    public static final String LOCAL_QUEUE_QUOTA_RESERVED_WAIT_TIME = "kueue_local_queue_quota_reserved_wait_time_seconds";
    public static final String LOCAL_QUEUE_ADMITTED_WORKLOADS = "kueue_local_queue_admitted_workloads_total";
    public static final String LOCAL_QUEUE_ADMISSION_WAIT_TIME = "kueue_local_queue_admission_wait_time_seconds";
    public static final String LOCAL_QUEUE_ADMISSION_CHECKS_WAIT_TIME = "kueue_local_queue_admission_checks_wait_time_seconds";
    public static final String LOCAL_QUEUE_EVICTED_WORKLOADS = "kueue_local_queue_evicted_workloads_total";

    /** Kueue has no dispatch counter for MultiKueue; the name is Berth's, in Kueue's style. */
    public static final String MULTIKUEUE_WORKLOADS_DISPATCHED = "multikueue_workloads_dispatched_total";

    // ---- Berth's own ------------------------------------------------------------------------
    public static final String CLUSTER_HEALTH = "berth_cluster_health";
    public static final String CLUSTER_FREE_CAPACITY = "berth_cluster_free_capacity";
    public static final String DISPATCH_LATENCY = "berth_dispatch_latency_seconds";
    public static final String FAILOVERS = "berth_failovers_total";
    public static final String LEASE_EXPIRIES = "berth_lease_expiries_total";
    /** How long a task waited for the manager's state thread, and how long it ran there (workqueue_queue/work_duration_seconds). */
    public static final String STATE_THREAD_QUEUE_DURATION = "berth_state_thread_queue_duration_seconds";
    public static final String STATE_THREAD_WORK_DURATION = "berth_state_thread_work_duration_seconds";

    /** Label keys. */
    public static final class Label {
        private Label() {}

        public static final String CLUSTER_QUEUE = "cluster_queue";
        public static final String PREEMPTING_CLUSTER_QUEUE = "preempting_cluster_queue";
        public static final String COHORT = "cohort";
        public static final String FLAVOR = "flavor";
        public static final String RESOURCE = "resource";
        public static final String STATUS = "status";
        public static final String REASON = "reason";
        public static final String RESULT = "result";
        public static final String CLUSTER = "cluster";
        public static final String STATE = "state";
        public static final String FROM_CLUSTER = "from_cluster";
        /** A LocalQueue's name and namespace on the kueue_local_queue_* series. */
        public static final String NAME = "name";
        public static final String NAMESPACE = "namespace";
        /** kueue_local_queue_status: the LocalQueue's Active condition status (True, False, Unknown). */
        public static final String ACTIVE = "active";
        /** The workload's priority class name, empty when it has none. */
        public static final String PRIORITY_CLASS = "priority_class";
        /** The root cause of an eviction, empty when the reason is the root cause. */
        public static final String UNDERLYING_CAUSE = "underlying_cause";
    }

    /** Label values Kueue uses. */
    public static final class Values {
        private Values() {}

        public static final String PENDING_ACTIVE = "active";
        public static final String PENDING_INADMISSIBLE = "inadmissible";
        public static final String CQ_PENDING = "pending";
        public static final String CQ_ACTIVE = "active";
        public static final String CQ_TERMINATING = "terminating";
        public static final String RESULT_SUCCESS = "success";
        public static final String RESULT_INADMISSIBLE = "inadmissible";
    }
}
