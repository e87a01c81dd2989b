package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Stamps status conditions with {@code observedGeneration}, as Kueue does on Workload, ClusterQueue
 * and LocalQueue conditions (metav1.Condition): the metadata.generation of the spec the controller
 * decided on. The controller applies a spec change on the state thread before it writes any status,
 * so the stored generation at write time is the one it observed.
 */
public final class ObservedGeneration {
    private ObservedGeneration() {}

    /** Sets observedGeneration on every condition of status to object's metadata.generation, if it has one. */
    public static ObjectNode stamp(ObjectNode status, JsonNode object) {
        JsonNode generation = object.path("metadata").path("generation");
        if (!generation.canConvertToLong()) return status;
        for (JsonNode condition : status.path("conditions")) {
            if (condition instanceof ObjectNode entry) entry.put("observedGeneration", generation.asLong());
        }
        return status;
    }
}
