package dev.berth.manager.dispatch;

import java.util.List;

/**
 * A workload's {@code status.dispatch}: where its current attempt went and what that cluster last
 * reported. Pod counts, reason, message and pod problems are there once the cluster has reported.
 *
 * @param cluster     the cluster of the attempt (the winner once one admitted it)
 * @param attemptId   the current attempt
 * @param phase       {@link #DISPATCHED} until a cluster reports, then the remote phase (Admitted, Running, ...)
 * @param pods        the remote pod counts; null before the cluster reported
 * @param reason      the remote reason, or null
 * @param message     the remote message, or null
 * @param podProblems failing pods with their container's reason; empty when none
 * @param topologyAssignments where the cluster's agent put the pods of pod sets with a topology request; empty when none
 */
public record DispatchStatus(String cluster, String attemptId, String phase, PodCounts pods, String reason, String message,
                             List<PodProblem> podProblems, List<TopologyAssignment> topologyAssignments) {
    /** The phase of an attempt no cluster has reported on yet. */
    public static final String DISPATCHED = "Dispatched";

    public DispatchStatus {
        podProblems = podProblems == null ? List.of() : List.copyOf(podProblems);
        topologyAssignments = topologyAssignments == null ? List.of() : List.copyOf(topologyAssignments);
    }

    /** A report without topology assignments. */
    public DispatchStatus(String cluster, String attemptId, String phase, PodCounts pods, String reason, String message,
                          List<PodProblem> podProblems) {
        this(cluster, attemptId, phase, pods, reason, message, podProblems, List.of());
    }

    /** An attempt just sent to a cluster, which has not reported yet. */
    public static DispatchStatus dispatched(String cluster, String attemptId) {
        return new DispatchStatus(cluster, attemptId, DISPATCHED, null, null, null, List.of());
    }

    /** True once the cluster has reported on the attempt (a phase other than {@link #DISPATCHED}). */
    public boolean reported() {
        return phase != null && !DISPATCHED.equals(phase);
    }

    /** Pods of the remote copy by phase; {@code ready} is null when the agent does not report readiness (an older agent). */
    public record PodCounts(int running, int succeeded, int failed, Integer ready) {
        public PodCounts(int running, int succeeded, int failed) {
            this(running, succeeded, failed, null);
        }
    }

    /** A failing pod of the remote copy: its container and that container's reason and message. */
    public record PodProblem(String pod, String container, String reason, String message) {}
}
