package dev.berth.manager.ha;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import java.util.UUID;

/**
 * The Hazelcast configuration of a replica: Vert.x's own map settings, TCP-IP join on the listed
 * members (or Kubernetes discovery by service DNS), no multicast, and failure detection tuned so a
 * silent member is dropped after the heartbeat timeout, a killed one as soon as its closed connection
 * and a refused reconnect show that nothing listens there any more.
 */
final class HazelcastSetup {
    /** Hazelcast removes a member's endpoint at the error after this many counted connection errors (its default 3). */
    static final int CONNECTION_FAULTS_BEFORE_REMOVAL = 1;
    /** Connection errors closer together than this count once (Hazelcast's default 100 ms, its reconnect pace). */
    static final long CONNECTION_FAULT_SPACING_MILLIS = 50;

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
        // A killed member's connection is closed by its kernel and its port refuses reconnects (tried every ~100 ms)
        // until its address goes away: two connection errors at least 50 ms apart (the close, a refused reconnect)
        // with no successful connect between them make Hazelcast suspect it at once, if no connection to it is left,
        // instead of at the heartbeat timeout. A live member's kernel accepts a connect even while its JVM is paused,
        // and a successful reconnect resets the count (docs/failover.md, "Detecting a killed leader sooner").
        config.setProperty("hazelcast.connection.monitor.max.faults", Integer.toString(CONNECTION_FAULTS_BEFORE_REMOVAL));
        config.setProperty("hazelcast.connection.monitor.interval", Long.toString(CONNECTION_FAULT_SPACING_MILLIS));
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
