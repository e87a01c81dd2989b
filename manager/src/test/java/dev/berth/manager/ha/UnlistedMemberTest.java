package dev.berth.manager.ha;

import static org.awaitility.Awaitility.await;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.MemoryObjectStore;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Hazelcast OSS lets anyone who reaches the cluster port with the cluster name join. Such a member
 * must not count as a replica: a replica that needs two members to lead does not lead with itself
 * and an unlisted member, and does once a listed replica joins.
 */
class UnlistedMemberTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    @Test
    void anUnlistedMemberNeverMakesUpTheQuorumToLead() throws Exception {
        String cluster = "berth-unlisted-" + UUID.randomUUID();
        int replicaPort = freePort();
        int otherReplicaPort = freePort();
        int roguePort = freePort();
        List<String> members = List.of("127.0.0.1:" + replicaPort, "127.0.0.1:" + otherReplicaPort);
        MemoryObjectStore store = new MemoryObjectStore();
        ReplicaOptions options = ReplicaOptions.loopback("a", 0).inCluster(cluster, replicaPort, members)
                .withMinMembersToLead(2).checkingLeadershipEvery(Duration.ofMillis(200)).waitingForJoinAtMost(Duration.ZERO);
        ManagerReplica replica = ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS));
        HazelcastInstance rogue = null;
        ManagerReplica other = null;
        try {
            rogue = Hazelcast.newHazelcastInstance(rogueConfig(cluster, roguePort, replicaPort));
            await().atMost(Duration.ofSeconds(30)).until(() -> replica.clusterSize() == 2);
            // forty leadership checks (200 ms apart) pass with two members in the cluster, one of them unlisted
            await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(10)).until(() -> !replica.isLeader());

            ReplicaOptions listed = ReplicaOptions.loopback("b", 0).inCluster(cluster, otherReplicaPort, members)
                    .withMinMembersToLead(2).checkingLeadershipEvery(Duration.ofMillis(200)).waitingForJoinAtMost(Duration.ZERO);
            other = ManagerReplica.start(listed, store, () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS));
            ManagerReplica b = other;
            await().atMost(Duration.ofSeconds(30)).until(() -> replica.isLeader() || b.isLeader());
        } finally {
            if (rogue != null) rogue.getLifecycleService().terminate();
            if (other != null) other.close();
            replica.close();
        }
    }

    private static Config rogueConfig(String cluster, int port, int replicaPort) {
        Config config = new Config();
        config.setClusterName(cluster);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        var join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + replicaPort);
        return config;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
