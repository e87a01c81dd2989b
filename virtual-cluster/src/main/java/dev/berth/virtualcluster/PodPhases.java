package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/** Pod phase names and the questions the controllers ask about them. */
final class PodPhases {
    static final String PENDING = "Pending";
    static final String RUNNING = "Running";
    static final String SUCCEEDED = "Succeeded";
    static final String FAILED = "Failed";

    private PodPhases() {}

    static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? PENDING : pod.getStatus().getPhase();
    }

    static boolean isTerminated(Pod pod) {
        String phase = phase(pod);
        return SUCCEEDED.equals(phase) || FAILED.equals(phase);
    }

    static PodCondition condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }
}
