package dev.berth.agent;

import java.util.List;

/** What {@link AttemptAdmission} decided: the attempt fits (and the snapshot with it placed), or why not. */
public sealed interface AdmissionResult {
    /** Every pod found a node; {@code after} accounts for them. {@code placements} is one node name per pod. */
    record Fits(ClusterSnapshot after, List<String> placements) implements AdmissionResult {}

    /** At least one pod has no node; {@code reason} says why, in the agent's wording. */
    record DoesNotFit(String reason) implements AdmissionResult {}

    default boolean fits() {
        return this instanceof Fits;
    }
}
