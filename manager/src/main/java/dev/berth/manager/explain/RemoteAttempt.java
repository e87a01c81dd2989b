package dev.berth.manager.explain;

import dev.berth.manager.dispatch.TopologyAssignment;
import java.util.List;

/**
 * The current remote attempt as the manager mirrors it in the Workload's status.dispatch: cluster,
 * attempt id, phase (Dispatched until the agent reports), the agent's reason and message, pod
 * counts, the pod problems the agent reports (container reasons), and where the agent put the pods of
 * pod sets with a topology request.
 */
public record RemoteAttempt(String cluster, String attemptId, String phase, String reason, String message,
                            int podsRunning, int podsSucceeded, int podsFailed, List<PodProblem> podProblems,
                            List<TopologyAssignment> topologyAssignments) {
    public RemoteAttempt {
        podProblems = List.copyOf(podProblems);
        topologyAssignments = topologyAssignments == null ? List.of() : List.copyOf(topologyAssignments);
    }

    /** An attempt without topology assignments. */
    public RemoteAttempt(String cluster, String attemptId, String phase, String reason, String message,
                         int podsRunning, int podsSucceeded, int podsFailed, List<PodProblem> podProblems) {
        this(cluster, attemptId, phase, reason, message, podsRunning, podsSucceeded, podsFailed, podProblems, List.of());
    }

    /** The same attempt with another reason (a copy waiting for its cluster's ProvisioningRequest says so, and how long). */
    public RemoteAttempt withReason(String reason) {
        return new RemoteAttempt(cluster, attemptId, phase, reason, message, podsRunning, podsSucceeded, podsFailed, podProblems);
    }

    public record PodProblem(String pod, String container, String reason, String message) {
    }
}
