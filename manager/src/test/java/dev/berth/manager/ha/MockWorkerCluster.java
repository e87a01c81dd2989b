package dev.berth.manager.ha;

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
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A worker cluster as a fabric8 CRUD mock API server on loopback; the test plays its agent. */
public final class MockWorkerCluster implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesMockServer server;
    private final KubernetesClient agent;
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();

    public MockWorkerCluster(int freeGpus) throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        agent = server.createClient();
        try (var crd = MockWorkerCluster.class.getResourceAsStream("/META-INF/fabric8/remoteworkloads.berth.dev-v1.yml")) {
            agent.apiextensions().v1().customResourceDefinitions().load(new ByteArrayInputStream(crd.readAllBytes())).create();
        }
        heartbeat(freeGpus);
        heartbeats.scheduleWithFixedDelay(() -> {
            try {
                heartbeat(freeGpus);
            } catch (Exception e) {
                // the next beat tries again
            }
        }, 2, 2, TimeUnit.SECONDS);
    }

    public Path kubeconfig(Path dir) {
        String url = server.url("/").replaceAll("/$", "");
        Path file = dir.resolve("worker.kubeconfig");
        try {
            Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + url + "\n"
                    + "users:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n"
                    + "current-context: c\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    public void heartbeat(int freeGpus) throws Exception {
        CapacityReport report = new CapacityReport();
        CapacityReport.FlavorCapacity a100 = new CapacityReport.FlavorCapacity();
        a100.setName("a100");
        a100.setNodes(2);
        a100.setFree(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "64"));
        a100.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "32"));
        report.getFlavors().add(a100);
        agent.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new LeaseBuilder()
                .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .addToAnnotations(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(report)).endMetadata()
                .withNewSpec().withHolderIdentity("worker-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                .createOr(NonDeletingOperation::update);
    }

    public List<RemoteWorkload> attempts(String namespace) {
        return agent.resources(RemoteWorkload.class).inNamespace(namespace).list().getItems();
    }

    public RemoteWorkload attempt(String namespace, String workloadName) {
        return attempts(namespace).stream().filter(r -> workloadName.equals(r.getSpec().getWorkloadName())).findFirst().orElse(null);
    }

    public void reportRunning(RemoteWorkload remote, int pods) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Running");
        status.setAttemptId(remote.getSpec().getAttemptId());
        status.setPodsRunning(pods);
        status.setObjectStatus(Map.of("active", pods));
        remote.setStatus(status);
        agent.resources(RemoteWorkload.class).inNamespace(remote.getMetadata().getNamespace()).resource(remote).updateStatus();
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
        agent.close();
        server.destroy();
    }
}
