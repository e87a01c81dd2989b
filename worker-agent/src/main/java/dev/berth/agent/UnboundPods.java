package dev.berth.agent;

import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * Capacity held for an admitted attempt whose pods are not all bound to nodes yet, so that two
 * attempts do not both take the last GPUs. Bound (or finished) pods are already counted on their
 * nodes; the rest of the attempt's pods are placed on the snapshot as if bound.
 */
public final class UnboundPods {
    private UnboundPods() {}

    public static ClusterSnapshot reserve(ClusterSnapshot cluster, List<PodDemand> demands, List<Pod> attemptPods) {
        return reserve(cluster, demands, bound(attemptPods));
    }

    /**
     * As {@link #reserve(ClusterSnapshot, List, List)} for an attempt's spec, turning the spec into demands only when
     * some of its pods are not bound: a running attempt whose pods are all bound, the usual case, costs a count.
     */
    public static ClusterSnapshot reserve(ClusterSnapshot cluster, RemoteWorkloadSpec spec, List<Pod> attemptPods) {
        long bound = bound(attemptPods);
        if (bound >= spec.getPodSets().stream().mapToLong(PodSetPlacement::getCount).sum()) return cluster;
        return reserve(cluster, AttemptDemand.of(spec), bound);
    }

    private static long bound(List<Pod> attemptPods) {
        return attemptPods.stream()
                .filter(p -> (p.getSpec() != null && p.getSpec().getNodeName() != null) || ClusterSnapshot.isTerminated(p))
                .count();
    }

    private static ClusterSnapshot reserve(ClusterSnapshot cluster, List<PodDemand> demands, long bound) {
        List<PodDemand> remaining = remaining(demands, bound);
        if (remaining.isEmpty()) return cluster;
        AdmissionResult result = AttemptAdmission.admit(cluster, remaining);
        return result instanceof AdmissionResult.Fits fits ? fits.after() : cluster;
    }

    /** The demands without their first {@code bound} pods, in pod set order. */
    static List<PodDemand> remaining(List<PodDemand> demands, long bound) {
        List<PodDemand> remaining = new ArrayList<>();
        long skip = bound;
        for (PodDemand demand : demands) {
            long left = demand.count() - Math.min(skip, demand.count());
            skip -= demand.count() - left;
            if (left > 0) remaining.add(demand.withCount((int) left));
        }
        return remaining;
    }
}
