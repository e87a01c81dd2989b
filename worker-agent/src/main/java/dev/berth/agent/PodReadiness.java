package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.List;

/**
 * Kueue's PodsReady for an attempt: a pod counts once its Ready condition is True or it has
 * succeeded (Kueue's Job adapter: {@code ready + succeeded >= parallelism}), and the attempt is ready
 * when at least every admitted pod counts. The manager turns this into the Workload's PodsReady
 * condition, which waitForPodsReady's timeout and blockAdmission read.
 */
public final class PodReadiness {
    private PodReadiness() {}

    /** Sets podsReady and allPodsReady on the status; expectedPods is the admitted pod count of the attempt. */
    public static void report(RemoteWorkloadStatus status, List<Pod> pods, int expectedPods) {
        int ready = 0;
        for (Pod pod : pods) {
            if (isReadyOrSucceeded(pod)) ready++;
        }
        status.setPodsReady(ready);
        status.setAllPodsReady(expectedPods > 0 && ready >= expectedPods);
    }

    static boolean isReadyOrSucceeded(Pod pod) {
        if (pod.getStatus() == null) return false;
        if ("Succeeded".equals(pod.getStatus().getPhase())) return true;
        if (pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null) return false;
        for (PodCondition condition : pod.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType()) && "True".equals(condition.getStatus())) return true;
        }
        return false;
    }
}
