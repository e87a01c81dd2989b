package dev.berth.manager.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

/**
 * The test playing a worker agent on a fabric8 mock cluster (namespace team-a, one a100 flavor): its
 * heartbeat Lease with a capacity report, the attempt the manager created there, and the status it reports.
 */
final class PlayedAgent {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PlayedAgent() {}

    static void heartbeat(KubernetesClient agent, String cluster, int freeGpus) throws Exception {
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
                .withNewSpec().withHolderIdentity(cluster + "-agent").withRenewTime(ZonedDateTime.now()).endSpec().build())
                .createOr(NonDeletingOperation::update);
    }

    static RemoteWorkload attempt(KubernetesClient agent) {
        List<RemoteWorkload> items = agent.resources(RemoteWorkload.class).inNamespace("team-a").list().getItems();
        return items.isEmpty() ? null : items.get(0);
    }

    static void report(KubernetesClient agent, RemoteWorkload remote, String phase, Map<String, Object> objectStatus) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase(phase);
        status.setAttemptId(remote.getSpec().getAttemptId());
        status.setPodsRunning("Running".equals(phase) ? 2 : 0);
        status.setObjectStatus(objectStatus);
        remote.setStatus(status);
        agent.resources(RemoteWorkload.class).inNamespace("team-a").resource(remote).updateStatus();
    }
}
