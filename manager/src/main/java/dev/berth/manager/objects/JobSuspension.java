package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KubeflowJobKind;

/**
 * Where a job kind keeps its suspend and managedBy switches: {@code spec.suspend} and {@code spec.managedBy}
 * for Jobs and JobSets, {@code spec.runPolicy.suspend} and {@code spec.runPolicy.managedBy} for the
 * Kubeflow training jobs, as Kueue's integrations read them.
 */
public final class JobSuspension {
    private JobSuspension() {}

    public static boolean isSuspended(JsonNode job) {
        return switches(job).path("suspend").asBoolean(false);
    }

    /** Whether the job says anything about suspension (a Job always may). */
    public static boolean hasSuspendField(JsonNode job) {
        return switches(job).has("suspend");
    }

    /** Sets the job's suspend switch, creating its parent objects when missing. */
    public static void suspend(ObjectNode job, boolean suspend) {
        if (dev.berth.protocol.ServingKind.of(job.path("kind").asText()).isPresent()) return; // no suspend switch
        writableSwitches(job).put("suspend", suspend);
    }

    /** Sets managedBy unless the job names a manager already (Kueue's ApplyDefaultForManagedBy). */
    public static void defaultManagedBy(ObjectNode job, String controllerName) {
        ObjectNode switches = writableSwitches(job);
        if (!switches.has("managedBy")) switches.put("managedBy", controllerName);
    }

    /** Drops managedBy so the worker's own controller runs a copy (MultiKueue's adapters clear it). */
    public static void clearManagedBy(ObjectNode job) {
        JsonNode switches = switches(job);
        if (switches instanceof ObjectNode object) object.remove("managedBy");
    }

    private static JsonNode switches(JsonNode job) {
        JsonNode spec = job.path("spec");
        return isKubeflow(job) ? spec.path("runPolicy") : spec;
    }

    private static ObjectNode writableSwitches(ObjectNode job) {
        ObjectNode spec = job.with("spec");
        return isKubeflow(job) ? spec.with("runPolicy") : spec;
    }

    private static boolean isKubeflow(JsonNode job) {
        return KubeflowJobKind.of(job.path("kind").asText()).isPresent();
    }
}
