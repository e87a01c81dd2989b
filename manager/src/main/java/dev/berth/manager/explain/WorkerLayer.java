package dev.berth.manager.explain;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Layer 3, the worker cluster: the agent's all-or-nothing admission of the attempt. A pending
 * attempt carries the agent's reason (worker-agent AttemptAdmission): no node matches the flavor's
 * labels, a taint is not tolerated, or not enough free on matching nodes. An admitted attempt says
 * where the agent put the pods of topology pod sets.
 */
final class WorkerLayer {
    private WorkerLayer() {}

    static Layer of(RemoteAttempt attempt) {
        if (attempt == null || attempt.attemptId() == null) return Layer.notReached(Layers.WORKER, "No attempt on a worker cluster.");
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cluster", attempt.cluster());
        details.put("attemptId", attempt.attemptId());
        details.put("phase", attempt.phase());
        String agentReason = attempt.reason() != null ? attempt.reason() : attempt.message();
        if (agentReason != null) details.put("agentReason", agentReason);
        String phase = attempt.phase();
        if (RemoteWorkloadPhase.PENDING.equals(phase) && agentReason != null && agentReason.startsWith(PROVISIONING_PREFIX)) {
            // the cluster is growing for it (ProvisioningRequest): the workload waits there on purpose
            return Layer.waiting(Layers.WORKER, WAITING_FOR_PROVISIONING, capitalized(agentReason) + ".", details);
        }
        if (RemoteWorkloadPhase.PENDING.equals(phase)) {
            String text = agentReason == null ? "waiting for capacity" : agentReason;
            return Layer.blocked(Layers.WORKER, reasonOf(agentReason),
                    "Cluster " + attempt.cluster() + " has not started the attempt: " + text + ".", details);
        }
        if (RemoteWorkloadPhase.STOPPED.equals(phase) || RemoteWorkloadPhase.REJECTED.equals(phase)) {
            return Layer.blocked(Layers.WORKER, Reasons.WORKER_PENDING, "Cluster " + attempt.cluster() + " "
                    + phase.toLowerCase(java.util.Locale.ROOT) + " the attempt: " + agentReason + ".", details);
        }
        if (phase == null || !(RemoteWorkloadPhase.ADMITTED.equals(phase) || RemoteWorkloadPhase.RUNNING.equals(phase)
                || RemoteWorkloadPhase.isFinal(phase))) {
            return Layer.waiting(Layers.WORKER, Reasons.WORKER_NOT_REPORTED,
                    "Waiting for the agent of cluster " + attempt.cluster() + " to report the attempt.", details);
        }
        String placed = TopologyPlacementText.of(attempt.topologyAssignments());
        if (placed != null) details.put("topologyAssignments", TopologyPlacementText.rows(attempt.topologyAssignments()));
        return Layer.ok(Layers.WORKER, Reasons.WORKER_ADMITTED, "Cluster " + attempt.cluster() + " admitted the attempt"
                + (placed == null ? "" : "; " + placed) + ".", details);
    }

    static final String PROVISIONING_PREFIX = "waiting for capacity on cluster ";
    static final String WAITING_FOR_PROVISIONING = "WaitingForProvisionedCapacity";

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    static String reasonOf(String agentReason) {
        if (agentReason == null) return Reasons.WORKER_PENDING;
        if (agentReason.startsWith("no node matches flavor")) return Reasons.NO_NODE_MATCHES_FLAVOR;
        if (agentReason.startsWith("untolerated taint")) return Reasons.TAINT_NOT_TOLERATED;
        if (agentReason.startsWith("insufficient")) return Reasons.INSUFFICIENT_NODE_CAPACITY;
        return Reasons.WORKER_PENDING;
    }
}
