package dev.berth.manager.explain;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Layer 4, runtime: the pods of the attempt, from the status the agent mirrors. Failing pods come
 * with their container's reason (the agent's podProblems). Missing: node events and pod logs are
 * not mirrored to the manager, so a pod that waits without a container reason shows as pending only.
 */
final class RuntimeLayer {
    private RuntimeLayer() {}

    static Layer of(RemoteAttempt attempt) {
        String phase = attempt == null ? null : attempt.phase();
        boolean started = RemoteWorkloadPhase.ADMITTED.equals(phase) || RemoteWorkloadPhase.RUNNING.equals(phase)
                || RemoteWorkloadPhase.SUCCEEDED.equals(phase) || RemoteWorkloadPhase.FAILED.equals(phase);
        if (!started) return Layer.notReached(Layers.RUNTIME, "No pods yet.");
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("podsRunning", attempt.podsRunning());
        details.put("podsSucceeded", attempt.podsSucceeded());
        details.put("podsFailed", attempt.podsFailed());
        details.put("podProblems", attempt.podProblems().stream().map(p -> {
            Map<String, Object> problem = new LinkedHashMap<>();
            problem.put("pod", p.pod());
            if (p.container() != null) problem.put("container", p.container());
            problem.put("reason", p.reason());
            if (p.message() != null) problem.put("message", p.message());
            return problem;
        }).toList());
        details.put("notMirrored", "node events and pod logs stay on the worker cluster");
        if (RemoteWorkloadPhase.SUCCEEDED.equals(phase)) {
            return Layer.ok(Layers.RUNTIME, Reasons.SUCCEEDED, "The workload succeeded on cluster " + attempt.cluster() + ".", details);
        }
        if (!attempt.podProblems().isEmpty()) {
            return Layer.blocked(Layers.RUNTIME, Reasons.PODS_FAILING, attempt.podProblems().size() + " pod problem(s) on cluster "
                    + attempt.cluster() + ": " + describe(attempt.podProblems()) + ".", details);
        }
        if (RemoteWorkloadPhase.FAILED.equals(phase) || attempt.podsFailed() > 0) {
            String why = attempt.message() != null ? attempt.message() : attempt.podsFailed() + " pod(s) failed";
            return Layer.blocked(Layers.RUNTIME, Reasons.FAILED, "On cluster " + attempt.cluster() + ": " + why + ".", details);
        }
        return Layer.ok(Layers.RUNTIME, Reasons.PODS_RUNNING, attempt.podsRunning() + " pod(s) running on cluster "
                + attempt.cluster() + ".", details);
    }

    private static String describe(List<RemoteAttempt.PodProblem> problems) {
        return String.join("; ", problems.stream().limit(5).map(p -> p.pod() + (p.container() == null ? "" : "/" + p.container())
                + ": " + p.reason() + (p.message() == null ? "" : " (" + p.message() + ")")).toList());
    }
}
