package dev.berth.manager.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.util.function.Consumer;

/**
 * Writes what the dispatcher knows of a workload's remote attempt into the store: the Workload's
 * {@code status.dispatch} block and {@code status.clusterName}, and the remote object's status onto
 * the Job or JobSet that owns the Workload. Only when something changed.
 */
final class DispatchStatusWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DispatchStatusWriter() {}

    /** The {@code status.dispatch} block: cluster, attempt id, phase and, once the cluster reported, its pod counts and message. */
    static ObjectNode dispatchBlock(String cluster, String attemptId, String phase, RemoteWorkloadStatus remote) {
        ObjectNode block = JsonNodeFactory.instance.objectNode();
        block.put("cluster", cluster);
        block.put("attemptId", attemptId);
        block.put("phase", phase);
        if (remote != null) {
            block.put("podsRunning", remote.getPodsRunning());
            block.put("podsSucceeded", remote.getPodsSucceeded());
            block.put("podsFailed", remote.getPodsFailed());
            if (remote.getAllPodsReady() != null) block.put("podsReady", remote.getPodsReady());
            if (remote.getReason() != null) block.put("reason", remote.getReason());
            if (remote.getMessage() != null) block.put("message", remote.getMessage());
            if (remote.getPodProblems() != null && !remote.getPodProblems().isEmpty()) {
                block.set("podProblems", JSON.valueToTree(remote.getPodProblems()));
            }
        }
        return block;
    }

    /** Writes status.dispatch and status.clusterName (null removes them) when they changed. */
    static void writeDispatch(ManagerState state, WorkloadKey key, ObjectNode block, String clusterName) {
        updateWorkloadStatus(state, key, status -> {
            if (block == null) status.remove("dispatch");
            else status.set("dispatch", block);
            if (clusterName == null) status.remove("clusterName");
            else status.put("clusterName", clusterName);
        });
    }

    /**
     * Applies a change to the stored Workload's status and writes it when it changed; a workload that is
     * gone (or deleted meanwhile) is left alone. The dispatcher's own status fields all go through here.
     */
    static void updateWorkloadStatus(ManagerState state, WorkloadKey key, Consumer<ObjectNode> change) {
        ObjectKey objectKey = new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name());
        state.store.get(objectKey).ifPresent(stored -> {
            ObjectNode status = stored.object().path("status").isObject() ? (ObjectNode) stored.object().get("status")
                    : JsonNodeFactory.instance.objectNode();
            ObjectNode before = status.deepCopy();
            change.accept(status);
            if (status.equals(before)) return;
            try {
                state.store.replaceStatus(objectKey, status, null);
            } catch (NotFoundException deleted) {
                // deleted meanwhile
            }
        });
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
