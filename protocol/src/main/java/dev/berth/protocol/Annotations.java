package dev.berth.protocol;

/** Annotation keys read or written by Berth. Kueue's own keys keep Kueue's spelling. */
public final class Annotations {
    private Annotations() {}

    /** How many pods make a complete pod group. */
    public static final String POD_GROUP_TOTAL_COUNT = "kueue.x-k8s.io/pod-group-total-count";
    /** The smallest parallelism a Job accepts: partial admission. */
    public static final String JOB_MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism";
    /** With "true", Kueue sets a partially admitted Job's completions to its reduced parallelism too. */
    public static final String JOB_COMPLETIONS_EQUAL_PARALLELISM = "kueue.x-k8s.io/job-completions-equal-parallelism";
    /** The leadership epoch of the manager replica that wrote an object to a worker cluster. */
    public static final String FENCING_EPOCH = "berth.dev/fencing-epoch";
    /** When the dispatch lease of an attempt expires unless the manager renews it (RFC 3339). */
    public static final String LEASE_EXPIRES_AT = "berth.dev/lease-expires-at";
    /** On the agent's heartbeat Lease: its CapacityReport as JSON. */
    public static final String AGENT_CAPACITY = "berth.dev/capacity";
    /** On the agent's heartbeat Lease: the highest fencing epoch the agent has accepted. */
    public static final String AGENT_FENCING_EPOCH = "berth.dev/fencing-epoch";
    /** Virtual clusters: how long a simulated pod runs (ISO-8601 duration or seconds), default PT2S. */
    public static final String SIMULATED_RUNTIME = "berth.dev/sim-runtime";
    /** Virtual clusters: the exit code of a simulated pod's containers, default 0. */
    public static final String SIMULATED_EXIT_CODE = "berth.dev/sim-exit-code";
    /**
     * On a Workload or its Job/JobSet: a longer dispatch lease for work that must not be interrupted lightly
     * (ISO-8601 duration, e.g. PT30M, or seconds). Such a workload is not redispatched from a lost cluster
     * before max(workerLostTimeout, lease + margin) has passed.
     */
    public static final String LEASE_DURATION = "berth.dev/lease-duration";
    /** On a MultiKueueCluster, "true": cordoned, no new dispatch goes there (kubectl annotate ... berth.dev/cordon=true). */
    public static final String CORDON = "berth.dev/cordon";
    /** On a MultiKueueCluster, "true": drained, its workloads are evicted and requeued elsewhere; implies cordon. */
    public static final String DRAIN = "berth.dev/drain";
    /** On a MultiKueueConfig: how Berth picks worker clusters (Default, AllAtOnce or Incremental). */
    public static final String DISPATCH_STRATEGY = "berth.dev/dispatch-strategy";
    /**
     * On a Kueue object read through kueue.x-k8s.io/v1beta1: the v1beta2 fields that version cannot
     * express, as a JSON object of JSON pointer to value; a write back through v1beta1 restores them.
     */
    public static final String V1BETA2_FIELDS = "conversion.berth.dev/v1beta2-fields";
    /** On a stored Kueue object written through v1beta1: its v1beta1 spec fields that v1beta2 dropped, likewise. */
    public static final String V1BETA1_FIELDS = "conversion.berth.dev/v1beta1-fields";
}
