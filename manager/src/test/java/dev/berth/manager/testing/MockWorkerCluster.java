package dev.berth.manager.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker cluster as a fabric8 CRUD mock API server on loopback, with the RemoteWorkload CRD loaded and a
 * kubeconfig for it; the test plays its agent: the heartbeat Lease with a capacity report, the attempts the
 * manager created (namespace {@value #NAMESPACE}), and the status the agent reports on them.
 * {@link #connect} registers it with a manager as a MultiKueueCluster and waits until it is Active.
 */
public final class MockWorkerCluster implements AutoCloseable {
    /** The namespace every end-to-end test submits its jobs in, so where the attempts land. */
    public static final String NAMESPACE = "team-a";
    public static final String KUEUE_NAMESPACE = "kueue-system";
    private static final Duration ACTIVE_WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Read once: the protocol jar may be rewritten by a concurrent install while tests run. */
    private static final byte[] CRD = readCrd();

    private final String name;
    private final KubernetesMockServer server;
    private final KubernetesClient agent;
    private final Path kubeconfig;
    private volatile Capacity capacity;
    private ScheduledExecutorService beats;

    private MockWorkerCluster(String name, KubernetesCrudDispatcher dispatcher) throws IOException {
        this.name = name;
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), PatchRefusals.answered(dispatcher), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        agent = server.createClient();
        agent.apiextensions().v1().customResourceDefinitions().load(new ByteArrayInputStream(CRD)).create();
        kubeconfig = Files.createTempFile("berth-" + name, ".kubeconfig");
        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "
                + server.url("/").replaceAll("/$", "") + "\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n"
                + "  context:\n    cluster: c\n    user: u\ncurrent-context: c\n");
    }

    /** An empty cluster (no heartbeat yet) with a plain CRUD API server. */
    public static MockWorkerCluster start(String name) {
        return start(name, new KubernetesCrudDispatcher());
    }

    /** An empty cluster whose API server is the given dispatcher (a subclass that delays or fails some calls). */
    public static MockWorkerCluster start(String name, KubernetesCrudDispatcher dispatcher) {
        try {
            return new MockWorkerCluster(name, dispatcher);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    /** A client of the cluster's API server with the agent's rights (all of them). */
    public KubernetesClient agent() {
        return agent;
    }

    /** The kubeconfig file that reaches this cluster (removed on close). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    // ---- registration with the manager ----------------------------------------------------

    /** A MultiKueueCluster whose kubeconfig is the file at its path; waits until it is Active. */
    public MockWorkerCluster connect(ManagerClient client) {
        client.create(MultiKueueObjects.multiKueueCluster(name).kubeconfigPath(kubeconfig.toString()));
        return awaitActive(client);
    }

    /** A Secret in kueue-system holding the kubeconfig, and a MultiKueueCluster naming it; waits until it is Active. */
    public MockWorkerCluster connectThroughSecret(ManagerClient client) {
        String secret = name + "-kubeconfig";
        try {
            client.create("/api/v1/namespaces/" + KUEUE_NAMESPACE + "/secrets", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
                    + "\"metadata\":{\"name\":\"" + secret + "\"},\"stringData\":{\"kubeconfig\":"
                    + JSON.writeValueAsString(Files.readString(kubeconfig)) + "}}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client.create(MultiKueueObjects.multiKueueCluster(name).kubeconfigSecret(secret));
        return awaitActive(client);
    }

    private MockWorkerCluster awaitActive(ManagerClient client) {
        await().atMost(ACTIVE_WAIT).until(() ->
                "True".equals(ManagerClient.condition(client.get(ManagerClient.KUEUE + "/multikueueclusters/" + name), "Active")));
        return this;
    }

    // ---- the agent's heartbeat ------------------------------------------------------------

    /** The capacity an agent reports for one flavor (free CPU is always 64), and the fencing epoch it accepted if any. */
    public record Capacity(String flavor, int nodes, int freeGpus, int largestFreeGpus, int largestFreeCpu, Long acceptedEpoch) {
        /** Two a100 nodes with freeGpus free, as much on the largest node, and 32 CPUs there. */
        public static Capacity a100(int freeGpus) {
            return new Capacity("a100", 2, freeGpus, freeGpus, 32, null);
        }

        public Capacity acceptingEpoch(long epoch) {
            return new Capacity(flavor, nodes, freeGpus, largestFreeGpus, largestFreeCpu, epoch);
        }
    }

    /** Renews the agent's Lease reporting {@code Capacity.a100(freeGpus)}. */
    public MockWorkerCluster heartbeat(int freeGpus) {
        return heartbeat(Capacity.a100(freeGpus));
    }

    /** Renews the agent's Lease with this capacity report; a running {@link #beatEvery} repeats it from now on. */
    public MockWorkerCluster heartbeat(Capacity report) {
        capacity = report;
        CapacityReport.FlavorCapacity flavor = new CapacityReport.FlavorCapacity();
        flavor.setName(report.flavor());
        flavor.setNodes(report.nodes());
        flavor.setFree(Map.of("nvidia.com/gpu", Integer.toString(report.freeGpus()), "cpu", "64"));
        flavor.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", Integer.toString(report.largestFreeGpus()),
                "cpu", Integer.toString(report.largestFreeCpu())));
        CapacityReport capacityReport = new CapacityReport();
        capacityReport.getFlavors().add(flavor);
        Map<String, String> annotations = new HashMap<>();
        try {
            annotations.put(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(capacityReport));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (report.acceptedEpoch() != null) annotations.put(Annotations.AGENT_FENCING_EPOCH, Long.toString(report.acceptedEpoch()));
        agent.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new LeaseBuilder()
                .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .addToAnnotations(annotations).endMetadata()
                .withNewSpec().withHolderIdentity(name + "-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                .createOr(NonDeletingOperation::update);
        return this;
    }

    /** Repeats the last heartbeat every period until closed, as a live agent does. */
    public synchronized MockWorkerCluster beatEvery(Duration period) {
        if (beats != null) throw new IllegalStateException("already beating");
        beats = Executors.newSingleThreadScheduledExecutor();
        beats.scheduleWithFixedDelay(() -> {
            try {
                if (capacity != null) heartbeat(capacity);
            } catch (RuntimeException e) {
                // the next beat tries again
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    // ---- the attempts and their status ----------------------------------------------------

    public List<RemoteWorkload> attempts() {
        return agent.resources(RemoteWorkload.class).inNamespace(NAMESPACE).list().getItems();
    }

    /** The first attempt on the cluster, or null. */
    public RemoteWorkload attempt() {
        List<RemoteWorkload> items = attempts();
        return items.isEmpty() ? null : items.get(0);
    }

    /** The attempt of the named Workload, or null. */
    public RemoteWorkload attemptOf(String workloadName) {
        return attempts().stream().filter(r -> workloadName.equals(r.getSpec().getWorkloadName())).findFirst().orElse(null);
    }

    /** The agent's report: phase, pods running, and the Job's status as the agent copies it back. */
    public void report(RemoteWorkload remote, String phase, int podsRunning, Map<String, Object> objectStatus) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase(phase);
        status.setPodsRunning(podsRunning);
        status.setObjectStatus(objectStatus);
        updateStatus(remote, status);
    }

    /** Running with pods active. */
    public void reportRunning(RemoteWorkload remote, int pods) {
        report(remote, "Running", pods, Map.of("active", pods));
    }

    /** Succeeded: no pod running, pods succeeded. */
    public void reportSucceeded(RemoteWorkload remote, int pods) {
        report(remote, "Succeeded", 0, Map.of("succeeded", pods));
    }

    /** Stopped: the agent removed the copy's objects. */
    public void reportStopped(RemoteWorkload remote) {
        report(remote, "Stopped", 0, null);
    }

    /** Writes status (stamped with the remote's attempt id) as the agent's status update of remote. */
    public void updateStatus(RemoteWorkload remote, RemoteWorkloadStatus status) {
        status.setAttemptId(remote.getSpec().getAttemptId());
        remote.setStatus(status);
        agent.resources(RemoteWorkload.class).inNamespace(remote.getMetadata().getNamespace()).resource(remote).updateStatus();
    }

    @Override
    public synchronized void close() {
        if (beats != null) beats.shutdownNow();
        agent.close();
        server.destroy();
        try {
            Files.deleteIfExists(kubeconfig);
        } catch (IOException e) {
            // a temp file; the OS cleans it up
        }
    }

    private static byte[] readCrd() {
        try (InputStream in = MockWorkerCluster.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
