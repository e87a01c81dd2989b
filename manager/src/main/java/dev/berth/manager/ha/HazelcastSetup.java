package dev.berth.manager.ha;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import java.util.UUID;

/**
 * The Hazelcast configuration of a replica: Vert.x's own map settings, TCP-IP join on the listed
 * members (or Kubernetes discovery by service DNS), no multicast, and failure detection tuned so a
 * silent member is dropped after the heartbeat timeout (a killed one is noticed at once from the
 * connection reset).
 */
final class HazelcastSetup {
    private HazelcastSetup() {}

    static Config config(ReplicaOptions options) {
        Config config = ConfigUtil.loadConfig();
        config.setClusterName(options.clusterName());
        config.setInstanceName("berth-" + options.replicaId() + "-" + UUID.randomUUID());
        // Vert.x finds its node id here when it is handed a running Hazelcast instance.
        config.getMemberAttributeConfig().setAttribute("__vertx.nodeId", UUID.randomUUID().toString());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(options.heartbeatTimeout().toSeconds()));
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(options.clusterPort()).setPortAutoIncrement(true);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (options.kubernetesServiceDns() != null) {
            join.getTcpIpConfig().setEnabled(false);
            join.getKubernetesConfig().setEnabled(true)
                    .setProperty("service-dns", options.kubernetesServiceDns())
                    .setProperty("service-port", Integer.toString(options.clusterPort()));
        } else {
            join.getTcpIpConfig().setEnabled(true).setMembers(MemberAddresses.resolve(options.members(), options.joinTimeout()));
            if (!"0.0.0.0".equals(options.clusterHost())) {
                network.getInterfaces().setEnabled(true).addInterface(interfaceAddress(options.clusterHost()));
            }
        }
        return config;
    }

    /** Hazelcast matches interfaces by IP address: a host name (a container's network alias) is resolved first. */
    static String interfaceAddress(String host) {
        if (host.matches("[0-9.*\\-]+")) return host;
        try {
            return java.net.InetAddress.getByName(host).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("--cluster-host " + host + " does not resolve: " + e.getMessage(), e);
        }
    }
}
