package dev.berth.chaos;

import dev.berth.virtualcluster.ClusterSimulator;
import dev.berth.virtualcluster.PodInterval;
import dev.berth.virtualcluster.PodLifetimeRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

/**
 * One worker cluster as the drills see it, each part in its own container: the virtual cluster (API
 * server and simulator, alias {@code <name>-api} on the site's own network), its agent on that network,
 * and the uplink, a latency proxy that is the site's only connection to the manager's network (alias
 * {@code <name>-uplink}). Cutting the uplink from the manager's network partitions the site; the agent
 * still reaches its cluster, as it would in a real partition.
 */
public final class WorkerSite {
    static final int API_PORT = 6443;
    static final int UPLINK_PORT = 7000;
    static final int UPLINK_CONTROL_PORT = 7001;
    static final int AGENT_PORT = 8081;
    private static final String CLUSTER_DIR = "/var/lib/berth/cluster";

    private final String name;
    private final Network siteNetwork;
    private final GenericContainer<?> cluster;
    private final GenericContainer<?> agent;
    private final GenericContainer<?> uplink;
    private String clusterKubeconfig;
    private volatile Instant clusterKilledAt;

    private WorkerSite(String name, String profile, Network managerNetwork) {
        this.name = name;
        this.siteNetwork = Network.newNetwork();
        this.cluster = ChaosContainers.container(ChaosImages.Component.VIRTUAL_CLUSTER, siteNetwork, apiAlias())
                .withCommand("--name", name, "--dir", CLUSTER_DIR, "--profile", profile, "--advertise-host", apiAlias())
                .withExposedPorts(API_PORT)
                .waitingFor(Wait.forLogMessage("(?s).*READY .*", 1).withStartupTimeout(ChaosContainers.STARTUP));
        this.agent = ChaosContainers.container(ChaosImages.Component.AGENT, siteNetwork, name + "-agent")
                .withCommand("--name", name, "--kubeconfig", "/tmp/kubeconfig", "--host", "0.0.0.0", "--port", Integer.toString(AGENT_PORT),
                        "--heartbeat", "PT1S", "--reconcile-interval", "PT0.5S")
                .withExposedPorts(AGENT_PORT)
                .waitingFor(Wait.forHttp("/readyz").forPort(AGENT_PORT).forStatusCode(200).withStartupTimeout(ChaosContainers.STARTUP));
        this.uplink = new UplinkContainer(siteNetwork, name + "-uplink-site")
                .withImagePullPolicy(image -> false)
                .withNetwork(managerNetwork)
                .withNetworkAliases(uplinkAlias())
                .withEnv("JAVA_TOOL_OPTIONS", ChaosContainers.SMALL_JVM)
                .withStartupTimeout(ChaosContainers.STARTUP)
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("java", "-cp", "/opt/berth/berth-virtual-cluster.jar",
                        "dev.berth.virtualcluster.proxy.LatencyProxyMain"))
                .withCommand("--target", apiAlias() + ":" + API_PORT, "--port", Integer.toString(UPLINK_PORT),
                        "--control-port", Integer.toString(UPLINK_CONTROL_PORT))
                .withExposedPorts(UPLINK_CONTROL_PORT)
                .waitingFor(Wait.forHttp("/healthz").forPort(UPLINK_CONTROL_PORT).forStatusCode(200).withStartupTimeout(ChaosContainers.STARTUP));
    }

    /** Starts the cluster, then its agent (with the kubeconfig the cluster wrote) and its uplink. */
    static WorkerSite start(String name, String profile, Network managerNetwork) {
        WorkerSite site = new WorkerSite(name, profile, managerNetwork);
        try {
            site.startParts();
            return site;
        } catch (RuntimeException | Error e) {
            site.stop();
            throw e;
        }
    }

    private void startParts() {
        WorkerSite site = this;
        site.cluster.start();
        site.clusterKubeconfig = site.cluster.copyFileFromContainer(CLUSTER_DIR + "/kubeconfig",
                in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
        site.agent.withCopyToContainer(Transferable.of(site.clusterKubeconfig, 0644), "/tmp/kubeconfig");
        site.agent.start();
        site.uplink.start();
    }

    /**
     * The uplink joins the site's network once created, before it starts: connected after the start,
     * the engine sometimes dropped the published control port (drill 4a lost it), and the proxy would
     * briefly run with only the manager's side.
     */
    private static final class UplinkContainer extends GenericContainer<UplinkContainer> {
        private final Network siteNetwork;
        private final String siteAlias;

        UplinkContainer(Network siteNetwork, String siteAlias) {
            super(ChaosImages.image(ChaosImages.Component.VIRTUAL_CLUSTER));
            this.siteNetwork = siteNetwork;
            this.siteAlias = siteAlias;
        }

        @Override
        protected void containerIsCreated(String containerId) {
            org.testcontainers.DockerClientFactory.instance().client().connectToNetworkCmd().withNetworkId(siteNetwork.getId())
                    .withContainerId(containerId).withContainerNetwork(new com.github.dockerjava.api.model.ContainerNetwork()
                            .withAliases(siteAlias)).exec();
        }
    }

    public String name() {
        return name;
    }

    String apiAlias() {
        return name + "-api";
    }

    String uplinkAlias() {
        return name + "-uplink";
    }

    /** The kubeconfig the manager gets: the cluster's own, with the server reached through the uplink. */
    String managerKubeconfig() {
        String direct = "http://" + apiAlias() + ":" + API_PORT;
        if (!clusterKubeconfig.contains(direct)) {
            throw new IllegalStateException("the cluster's kubeconfig does not advertise " + direct + ":\n" + clusterKubeconfig.lines()
                    .filter(line -> line.contains("server:")).findFirst().orElse("(no server line)"));
        }
        return clusterKubeconfig.replace(direct, "http://" + uplinkAlias() + ":" + UPLINK_PORT);
    }

    /**
     * A client of the cluster's own API from the drill's host, bypassing the uplink and Berth: what another
     * tenant of the cluster would use (WorkerCapacityVanishesDrill fills the nodes with it).
     */
    public io.fabric8.kubernetes.client.KubernetesClient tenantClient() {
        String direct = "http://" + apiAlias() + ":" + API_PORT;
        String fromHost = clusterKubeconfig.replace(direct, "http://127.0.0.1:" + cluster.getMappedPort(API_PORT));
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(fromHost)).build();
    }

    public GenericContainer<?> cluster() {
        return cluster;
    }

    public GenericContainer<?> agent() {
        return agent;
    }

    public GenericContainer<?> uplinkContainer() {
        return uplink;
    }

    public Uplink uplink() {
        // 127.0.0.1, not getHost() ("localhost"): a drill reaches containers only on IPv4 loopback.
        return new Uplink("http://127.0.0.1:" + uplink.getMappedPort(UPLINK_CONTROL_PORT));
    }

    /** The whole cluster dies at once: its API server with every pod it ran, and its agent. */
    public void killCluster() {
        clusterKilledAt = Instant.now();
        Faults.kill(cluster);
        Faults.kill(agent);
    }

    /**
     * Every pod interval the cluster recorded, read from its container (also after it was killed). Pods
     * still open when the whole cluster was killed ended with it: nothing runs in a dead cluster.
     */
    public List<PodInterval> podLifetimes() {
        String records;
        try {
            records = cluster.copyFileFromContainer(CLUSTER_DIR + "/" + ClusterSimulator.POD_LIFETIMES_FILE,
                    in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (RuntimeException noneYet) {
            return List.of();
        }
        try {
            Path file = Files.createTempFile("pod-lifetimes-" + name, ".jsonl");
            Files.writeString(file, records, StandardCharsets.UTF_8);
            List<PodInterval> intervals = PodLifetimeRecord.read(file);
            Files.delete(file);
            Instant killed = clusterKilledAt;
            if (killed == null) return intervals;
            return intervals.stream().map(p -> p.ended() ? p : new PodInterval(p.cluster(), p.namespace(), p.pod(), p.uid(), p.node(),
                    p.labels(), p.startMillis(), killed.toEpochMilli(), "ClusterKilled")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void saveLogs(Path dir) {
        ChaosContainers.saveLogs(cluster, dir, name + "-cluster");
        ChaosContainers.saveLogs(agent, dir, name + "-agent");
        ChaosContainers.saveLogs(uplink, dir, name + "-uplink");
    }

    void stop() {
        for (GenericContainer<?> container : List.of(agent, uplink, cluster)) {
            try {
                if (container.getContainerId() != null && Faults.isPaused(container)) Faults.unpause(container);
                container.stop();
            } catch (RuntimeException e) {
                System.err.println("chaos: could not remove a container of " + name + ": " + e);
            }
        }
        siteNetwork.close();
    }
}
