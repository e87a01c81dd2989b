package dev.berth.manager.ha;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one manager replica joins the others and serves. Members are "host" or "host:port" of other
 * replicas' Hazelcast endpoints (TCP-IP join); a Kubernetes service DNS name replaces them in a cluster.
 * A replica leads only while it sees at least minMembersToLead members (itself included): 2 of 3
 * keeps a minority side of a partition from leading.
 *
 * <p>A starting replica campaigns only once its join has settled ({@link JoinGate}): it sees
 * {@link #joinQuorum()} members, or a leader is already known, or joinTimeout has passed.
 * expectedMembers 0 means: every configured member (TCP-IP join, the list naming every replica,
 * itself included), or minMembersToLead with Kubernetes discovery.
 */
public record ReplicaOptions(
        String clusterName,
        String replicaId,
        String apiHost,
        int apiPort,
        String advertisedUrl,
        String clusterHost,
        int clusterPort,
        int eventBusPort,
        List<String> members,
        String kubernetesServiceDns,
        int minMembersToLead,
        Duration heartbeatTimeout,
        Duration leadershipCheckInterval,
        int expectedMembers,
        Duration joinTimeout) {

    public static final int DEFAULT_CLUSTER_PORT = 5701;
    public static final String DEFAULT_CLUSTER_NAME = "berth-manager";
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How long a member may miss heartbeats (sent every second) before the others drop it. A killed pod's
     * address goes silent rather than refusing connections, so this is most of a leader handover: 3 s keeps
     * the handover under 5 s; a longer pause (GC, an overloaded node) than this makes a member look dead,
     * which costs a needless election but never two writers (the epoch fences the store and the agents).
     */
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);

    public ReplicaOptions {
        clusterName = clusterName == null || clusterName.isBlank() ? DEFAULT_CLUSTER_NAME : clusterName;
        Objects.requireNonNull(replicaId, "replicaId");
        Objects.requireNonNull(apiHost, "apiHost");
        Objects.requireNonNull(clusterHost, "clusterHost");
        members = List.copyOf(members);
        kubernetesServiceDns = kubernetesServiceDns == null || kubernetesServiceDns.isBlank() ? null : kubernetesServiceDns;
        if (minMembersToLead < 1) throw new IllegalArgumentException("minMembersToLead must be at least 1");
        if (heartbeatTimeout.toSeconds() < 1) throw new IllegalArgumentException("heartbeatTimeout must be at least 1 s");
        if (expectedMembers < 0) throw new IllegalArgumentException("expectedMembers must not be negative");
        joinTimeout = joinTimeout == null ? DEFAULT_JOIN_TIMEOUT : joinTimeout;
        if (joinTimeout.isNegative()) throw new IllegalArgumentException("joinTimeout must not be negative");
    }

    /** How many members a starting replica waits to see (at most joinTimeout) before it campaigns. */
    public int joinQuorum() {
        if (expectedMembers > 0) return expectedMembers;
        if (kubernetesServiceDns != null) return minMembersToLead;
        return Math.max(1, (int) members.stream().map(String::strip).distinct().count());
    }

    /** Loopback replica for tests and one-machine runs: API on 127.0.0.1:apiPort, Hazelcast from 5701 upwards. */
    public static ReplicaOptions loopback(String replicaId, int apiPort) {
        return new ReplicaOptions(DEFAULT_CLUSTER_NAME, replicaId, "127.0.0.1", apiPort, null, "127.0.0.1", DEFAULT_CLUSTER_PORT, 0,
                List.of("127.0.0.1"), null, 1, Duration.ofSeconds(5), Duration.ofSeconds(1), 0, DEFAULT_JOIN_TIMEOUT);
    }

    public ReplicaOptions withMinMembersToLead(int count) {
        return new ReplicaOptions(clusterName, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, clusterPort, eventBusPort,
                members, kubernetesServiceDns, count, heartbeatTimeout, leadershipCheckInterval, expectedMembers, joinTimeout);
    }

    /** A separate cluster (tests running side by side), joining on the given Hazelcast port and members. */
    public ReplicaOptions inCluster(String name, int port, List<String> memberAddresses) {
        return new ReplicaOptions(name, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, port, eventBusPort,
                memberAddresses, kubernetesServiceDns, minMembersToLead, heartbeatTimeout, leadershipCheckInterval, expectedMembers, joinTimeout);
    }

    public ReplicaOptions checkingLeadershipEvery(Duration interval) {
        return new ReplicaOptions(clusterName, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, clusterPort, eventBusPort,
                members, kubernetesServiceDns, minMembersToLead, heartbeatTimeout, interval, expectedMembers, joinTimeout);
    }

    /** Waits at most timeout (from start) for the join quorum before campaigning anyway. */
    public ReplicaOptions waitingForJoinAtMost(Duration timeout) {
        return new ReplicaOptions(clusterName, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, clusterPort, eventBusPort,
                members, kubernetesServiceDns, minMembersToLead, heartbeatTimeout, leadershipCheckInterval, expectedMembers, timeout);
    }

    /** The URL other replicas forward writes to: the advertised one, else the API host and the bound port. */
    String advertisedUrlFor(int boundPort) {
        if (advertisedUrl != null && !advertisedUrl.isBlank()) return advertisedUrl;
        String host = "0.0.0.0".equals(apiHost) ? clusterHost : apiHost;
        return "http://" + host + ":" + boundPort;
    }
}
