package dev.berth.protocol.crd;

/** The phases of a dispatched attempt, as the agent reports them. */
public final class RemoteWorkloadPhase {
    private RemoteWorkloadPhase() {}

    /** Accepted by the agent, waiting for capacity on the cluster (reason says why). */
    public static final String PENDING = "Pending";
    /**
     * A reservation (spec.reservation true) that fits: the agent holds its capacity but created nothing and
     * started no pod; it waits for the manager's commit, or for its lease to run out (then Stopped).
     */
    public static final String RESERVED = "Reserved";
    /** Capacity found; the job was created unsuspended. */
    public static final String ADMITTED = "Admitted";
    /** At least one pod runs. */
    public static final String RUNNING = "Running";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    /**
     * Stopped by the agent: lease expired, fencing epoch superseded, or its objects deleted on the cluster by someone
     * else. Never reported as the workload's result.
     */
    public static final String STOPPED = "Stopped";
    /** Refused by the agent, e.g. an older fencing epoch or an unsupported template. */
    public static final String REJECTED = "Rejected";
    /** The reason of a Stopped attempt whose dispatch lease expired before the manager renewed it. */
    public static final String REASON_LEASE_EXPIRED = "LeaseExpired";
    /**
     * The reason of a Stopped attempt whose created objects and pods were all deleted on the cluster, not by Berth (an
     * administrator's delete, a TTL controller): nothing of it runs, so the manager places the workload again.
     */
    public static final String REASON_OBJECTS_DELETED = "ObjectsDeleted";

    public static boolean isFinal(String phase) {
        return SUCCEEDED.equals(phase) || FAILED.equals(phase) || STOPPED.equals(phase) || REJECTED.equals(phase);
    }
}
