package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.protocol.ServingKind;
import java.util.List;

/**
 * What a change of a serving object's {@code spec.replicas} does to its Workload (Kueue's serving integrations):
 * <ul>
 * <li>scaled to zero: the Workload goes, which stops the worker's copy and then releases the quota
 *     (Kueue keeps a StatefulSet's Workload on hold without quota; Berth deletes it);</li>
 * <li>scaled up from zero: a new Workload is queued and admitted again;</li>
 * <li>a StatefulSet resized between two non-zero sizes is refused, as Kueue's statefulset webhook does
 *     ("Allow only scale down to zero and scale up from zero");</li>
 * <li>a Deployment or LeaderWorkerSet resized between non-zero sizes is re-admitted: its Workload is replaced by
 *     one with the new counts, which queues and is admitted (and dispatched) again. Kueue admits a Deployment's
 *     pods one by one and a LeaderWorkerSet's groups one by one, so only the added or removed pods or groups are
 *     affected there; Berth dispatches the object as one unit, so the whole of it is re-admitted (docs/semantics.md).</li>
 * </ul>
 */
public final class ServingScale {
    public enum Action { NONE, RELEASE, ADMIT, READMIT }

    private ServingScale() {}

    /** Refuses a resize Kueue refuses (a StatefulSet between two non-zero sizes), naming spec.replicas. */
    public static void checkUpdate(ServingKind kind, JsonNode before, JsonNode after) {
        int from = ServingWorkloads.replicas(before);
        int to = ServingWorkloads.replicas(after);
        if (kind.equals(ServingKind.STATEFUL_SET) && from != 0 && to != 0 && from != to) {
            FieldCause cause = FieldCause.invalid("spec.replicas", "Invalid value: " + to + ": field is immutable"
                    + " (a StatefulSet Kueue manages scales only to zero and up from zero)");
            WorkloadFactory.throwIfAny(after, kind.kind(), after.path("metadata").path("name").asText(""), List.of(cause));
        }
    }

    /**
     * @param hasWorkload whether the object has a Workload now
     * @param workloadCounts the pod-set counts of that Workload (empty without one)
     * @param wantedCounts the pod-set counts the object asks for now ({@link ServingWorkloads})
     */
    public static Action decide(int replicas, boolean hasWorkload, List<Integer> workloadCounts, List<Integer> wantedCounts) {
        if (replicas == 0) return hasWorkload ? Action.RELEASE : Action.NONE;
        if (!hasWorkload) return Action.ADMIT;
        return workloadCounts.equals(wantedCounts) ? Action.NONE : Action.READMIT;
    }
}
