package dev.berth.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@link AttemptAdmission} decided: the attempt fits (and the snapshot with it placed), or why not. */
public sealed interface AdmissionResult {
    /**
     * Every pod found a node; {@code after} accounts for them. {@code placements} is one node name per pod.
     * {@code topology} holds, per pod set with a topology request, where Kueue's topology assignment put it.
     */
    record Fits(ClusterSnapshot after, List<String> placements, Map<String, TopologyPlacement.Placed> topology) implements AdmissionResult {
        public Fits {
            topology = Collections.unmodifiableMap(new LinkedHashMap<>(topology));
        }

        public Fits(ClusterSnapshot after, List<String> placements) {
            this(after, placements, Map.of());
        }
    }

    /** At least one pod has no node; {@code reason} says why, in the agent's wording. */
    record DoesNotFit(String reason) implements AdmissionResult {}

    default boolean fits() {
        return this instanceof Fits;
    }
}
