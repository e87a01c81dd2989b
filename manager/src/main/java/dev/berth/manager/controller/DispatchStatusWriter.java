package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DispatchParts;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.dispatch.TopologyAssignment;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Writes what the dispatcher knows of a workload's remote attempt into the store: the Workload's
 * {@code status.dispatch} block and {@code status.clusterName} (through {@link WorkloadStatusStore},
 * the Workload status's one writer), and the remote object's status onto the Job or JobSet that owns
 * the Workload. Only when something changed.
 */
final class DispatchStatusWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DispatchStatusWriter() {}

    /** The {@code status.dispatch} of an attempt the cluster reported on: phase, pod counts, reason, message and pod problems. */
    static DispatchStatus reported(String cluster, String attemptId, RemoteWorkloadStatus remote) {
        List<DispatchStatus.PodProblem> problems = remote.getPodProblems() == null ? List.of() : remote.getPodProblems().stream()
                .map(p -> new DispatchStatus.PodProblem(p.getPod(), p.getContainer(), p.getReason(), p.getMessage())).toList();
        return new DispatchStatus(cluster, attemptId, remote.getPhase(),
                new DispatchStatus.PodCounts(remote.getPodsRunning(), remote.getPodsSucceeded(), remote.getPodsFailed(),
                        remote.getAllPodsReady() == null ? null : remote.getPodsReady()),
                remote.getReason(), remote.getMessage(), problems, topologyAssignments(remote));
    }

    /** The agent's topology assignments (Admitted, Reserved and while running), as the dispatch part carries them. */
    private static List<TopologyAssignment> topologyAssignments(RemoteWorkloadStatus remote) {
        if (remote.getTopologyAssignments() == null) return List.of();
        return remote.getTopologyAssignments().stream().map(a -> new TopologyAssignment(a.getPodSet(), a.getLevels(),
                a.getDomains().stream().map(d -> new TopologyAssignment.Domain(d.getValues(), d.getCount())).toList())).toList();
    }

    /** Writes status.dispatch and status.clusterName (null removes them) when they changed. */
    static void writeDispatch(ManagerState state, WorkloadKey key, DispatchStatus dispatch, String clusterName) {
        update(state, key, parts -> parts.withDispatch(dispatch, clusterName));
    }

    /** Changes the dispatcher's part of the Workload's status (several fields at once: one write) when that changed anything. */
    static void update(ManagerState state, WorkloadKey key, UnaryOperator<DispatchParts> change) {
        new WorkloadStatusStore(state.store).updateDispatch(key, change);
    }

    /** Copies the remote Job's or JobSet's status onto the one that owns the Workload (status.active, succeeded, ...). */
    static void mirrorObjectStatus(ManagerState state, WorkloadKey key, RemoteWorkloadStatus remote) {
        if (remote.getPodStatuses() != null) mirrorPodStatuses(state, key, remote);
        if (remote.getObjectStatus() == null) return;
        state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name()).flatMap(RemoteWorkloads::ownerKey).ifPresent(owner -> {
            ObjectNode objectStatus = JSON.valueToTree(remote.getObjectStatus());
            var stored = state.store.get(owner);
            if (stored.isPresent() && !objectStatus.equals(stored.get().object().path("status"))) {
                state.store.replaceStatus(owner, objectStatus, null);
            }
        });
    }

    /** Copies each worker pod's status onto the manager's pod of the same name (plain pods and pod groups), as MultiKueue's pod adapter does. */
    private static void mirrorPodStatuses(ManagerState state, WorkloadKey key, RemoteWorkloadStatus remote) {
        state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name()).ifPresent(workload -> {
            for (com.fasterxml.jackson.databind.JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (!Resources.PODS.kind().equals(owner.path("kind").asText())) continue;
                Object status = remote.getPodStatuses().get(owner.path("name").asText());
                if (status == null) continue;
                ObjectKey pod = new ObjectKey(Resources.PODS.resource(), key.namespace(), owner.path("name").asText());
                ObjectNode podStatus = JSON.valueToTree(status);
                state.store.get(pod).filter(stored -> !podStatus.equals(stored.object().path("status"))).ifPresent(stored -> {
                    try {
                        state.store.replaceStatus(pod, podStatus, null);
                    } catch (NotFoundException deleted) {
                        // deleted meanwhile
                    }
                });
            }
        });
    }
}
