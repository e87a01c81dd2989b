package dev.berth.virtualcluster;

import dev.berth.protocol.crd.BerthCrds;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One virtual GPU cluster in this JVM: a CRUD-mode mock API server on a free loopback port with the
 * CRDs, the berth-system namespace and the profile's nodes, a kubeconfig in {@code dir}, and the
 * simulator running it. {@link VirtualClusterProcess} runs one in its own JVM.
 */
public final class VirtualCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VirtualCluster.class);
    public static final String KUBECONFIG_FILE = ClientIdentity.ADMIN.kubeconfigFile();
    /** Where each distinct kind of API request is recorded unless told otherwise ({@link ApiRequest} lines). */
    public static final String REQUEST_LOG_FILE = "api-requests.tsv";
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(200);

    private final String name;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final ClusterSimulator simulator;
    private final Path kubeconfig;

    private VirtualCluster(String name, KubernetesMockServer server, KubernetesClient client,
                           ClusterSimulator simulator, Path kubeconfig) {
        this.name = name;
        this.server = server;
        this.client = client;
        this.simulator = simulator;
        this.kubeconfig = kubeconfig;
    }

    public static VirtualCluster start(String name, ClusterProfile profile, Path dir, boolean spot, Duration period) {
        return start(name, profile, dir, spot, period, ServingAddress.LOOPBACK);
    }

    /** As above, serving on {@code address}; the kubeconfig names its advertised host (a container's network alias, say). */
    public static VirtualCluster start(String name, ClusterProfile profile, Path dir, boolean spot, Duration period,
                                       ServingAddress address) {
        return start(name, profile, dir, spot, period, address, dir.resolve(REQUEST_LOG_FILE));
    }

    /**
     * As above, recording each distinct kind of API request in {@code requestLog}. Besides the admin
     * kubeconfig, writes one per {@link ClientIdentity} next to it, so that the agent's and the
     * manager's requests can be told apart.
     */
    public static VirtualCluster start(String name, ClusterProfile profile, Path dir, boolean spot, Duration period,
                                       ServingAddress address, Path requestLog) {
        return start(name, profile, dir, spot, period, address, requestLog, null);
    }

    /** As above; with {@code autoscaling} not null, a simulated provisioner grows one pool on ProvisioningRequests. */
    public static VirtualCluster start(String name, ClusterProfile profile, Path dir, boolean spot, Duration period,
                                       ServingAddress address, Path requestLog, ProvisionerProfile autoscaling) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        KubernetesMockServer server = new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), new RequestRecorder(name, requestLog), false);
        try {
            server.init(InetAddress.getByName(address.bindHost()), address.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        KubernetesClient client = server.createClient();
        ClusterCrds.register(client);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(BerthCrds.SYSTEM_NAMESPACE)
            .addToLabels("kubernetes.io/metadata.name", BerthCrds.SYSTEM_NAMESPACE).endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("default")
            .addToLabels("kubernetes.io/metadata.name", "default").endMetadata().build()).create();
        for (NodePool pool : profile.pools()) {
            for (Node node : pool.toNodes(name, spot)) {
                client.nodes().resource(node).create();
            }
        }
        for (ClientIdentity identity : ClientIdentity.values()) {
            Kubeconfig.write(dir.resolve(identity.kubeconfigFile()), name, address.advertisedHost(), server.getPort(), identity);
        }
        Path kubeconfig = dir.resolve(KUBECONFIG_FILE);
        SimulatedProvisioner provisioner = null;
        if (autoscaling != null) {
            NodePool pool = profile.pools().stream().filter(p -> p.alias().equals(autoscaling.pool()) && p.hasGpus()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("autoscaling pool " + autoscaling.pool() + " is not a GPU pool of the profile"));
            ClusterCrds.registerProvisioningRequests(client);
            provisioner = new SimulatedProvisioner(client, name, pool, autoscaling, Clock.systemUTC());
            provisioner.publish();
        }
        ClusterSimulator simulator = new ClusterSimulator(client, name, dir, period, Clock.systemUTC(), provisioner);
        simulator.start();
        LOG.info("Virtual cluster {} serves on {}:{} (advertised as {}) with {} node pool(s)", name, address.bindHost(), server.getPort(),
            address.advertisedHost(), profile.pools().size());
        return new VirtualCluster(name, server, client, simulator, kubeconfig);
    }

    public String name() {
        return name;
    }

    public int port() {
        return server.getPort();
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    /** A client of this cluster's API, owned by the cluster: do not close it. */
    public KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        simulator.close();
        client.close();
        try {
            server.destroy();
        } catch (IllegalStateException slowShutdown) {
            // the mock server waits a fixed few seconds for its own Vert.x to close; on a saturated machine that wait
            // can run out although the server stopped answering: the cluster is gone either way
            LOG.warn("Virtual cluster {}: the API server's shutdown was slow: {}", name, slowShutdown.getMessage());
            return;
        }
        LOG.info("Virtual cluster {} stopped", name);
    }
}
