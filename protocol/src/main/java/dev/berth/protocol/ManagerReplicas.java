package dev.berth.protocol;

/** Wire names of the manager's replicas: how they forward writes to the leader and report their role. */
public final class ManagerReplicas {
    private ManagerReplicas() {}

    /** Set by a follower on a request it forwards to the leader; a replica never forwards such a request again. */
    public static final String FORWARDED_BY_HEADER = "X-Berth-Forwarded-By";
    /** On every answer from a replica: the id of the replica that served it. */
    public static final String SERVED_BY_HEADER = "X-Berth-Replica";
    /** GET: this replica's id, whether it leads, its epoch and the leader it knows of (JSON). */
    public static final String REPLICA_PATH = "/berth/replica";
}
