package dev.berth.manager.ha;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one manager replica joins the others and serves. Members are "host" or "host:port" of other
 * replicas' Hazelcast endpoints (TCP-IP join); a Kubernetes service DNS name replaces them in a cluster.
 * A replica leads only while it sees at least minMembersToLead members (itself included): 2 of 3
 * keeps a minority side of a partition from leading.
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
        Duration leadershipCheckInterval) {

    public static final int DEFAULT_CLUSTER_PORT = 5701;
    public static final String DEFAULT_CLUSTER_NAME = "berth-manager";

    public ReplicaOptions {
        clusterName = clusterName == null || clusterName.isBlank() ? DEFAULT_CLUSTER_NAME : clusterName;
        Objects.requireNonNull(replicaId, "replicaId");
        Objects.requireNonNull(apiHost, "apiHost");
        Objects.requireNonNull(clusterHost, "clusterHost");
        members = List.copyOf(members);
        kubernetesServiceDns = kubernetesServiceDns == null || kubernetesServiceDns.isBlank() ? null : kubernetesServiceDns;
        if (minMembersToLead < 1) throw new IllegalArgumentException("minMembersToLead must be at least 1");
        if (heartbeatTimeout.toSeconds() < 1) throw new IllegalArgumentException("heartbeatTimeout must be at least 1 s");
    }

    /** Loopback replica for tests and one-machine runs: API on 127.0.0.1:apiPort, Hazelcast from 5701 upwards. */
    public static ReplicaOptions loopback(String replicaId, int apiPort) {
        return new ReplicaOptions(DEFAULT_CLUSTER_NAME, replicaId, "127.0.0.1", apiPort, null, "127.0.0.1", DEFAULT_CLUSTER_PORT, 0,
                List.of("127.0.0.1"), null, 1, Duration.ofSeconds(5), Duration.ofSeconds(1));
    }

    public ReplicaOptions withMinMembersToLead(int count) {
        return new ReplicaOptions(clusterName, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, clusterPort, eventBusPort,
                members, kubernetesServiceDns, count, heartbeatTimeout, leadershipCheckInterval);
    }

    /** A separate cluster (tests running side by side), joining on the given Hazelcast port and members. */
    public ReplicaOptions inCluster(String name, int port, List<String> memberAddresses) {
        return new ReplicaOptions(name, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, port, eventBusPort,
                memberAddresses, kubernetesServiceDns, minMembersToLead, heartbeatTimeout, leadershipCheckInterval);
    }

    public ReplicaOptions checkingLeadershipEvery(Duration interval) {
        return new ReplicaOptions(clusterName, replicaId, apiHost, apiPort, advertisedUrl, clusterHost, clusterPort, eventBusPort,
                members, kubernetesServiceDns, minMembersToLead, heartbeatTimeout, interval);
    }

    /** The URL other replicas forward writes to: the advertised one, else the API host and the bound port. */
    String advertisedUrlFor(int boundPort) {
        if (advertisedUrl != null && !advertisedUrl.isBlank()) return advertisedUrl;
        String host = "0.0.0.0".equals(apiHost) ? clusterHost : apiHost;
        return "http://" + host + ":" + boundPort;
    }
}
