package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What kube-apiserver's Job strategy does to a batch/v1 Job on create, and what Kueue's webhook adds
 * for MultiKueue: a selector generated from the Job's uid (unless {@code spec.manualSelector}), the
 * controller-uid and job-name labels on the pod template, and {@code spec.managedBy}. On update neither the
 * selector nor managedBy can change ({@link JobUpdateRules}), so a body without them keeps the stored ones. Pure JSON. A body whose shape is
 * wrong where a default would go (a string where an object belongs) is left as it is, for validation to
 * refuse with the field's name.
 */
public final class JobDefaults {
    public static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    public static final String JOB_NAME = "batch.kubernetes.io/job-name";
    public static final String LEGACY_CONTROLLER_UID = "controller-uid";
    public static final String LEGACY_JOB_NAME = "job-name";
    /** The labels the API server generates on a Job's pod template; a copy sent to another cluster drops them. */
    public static final List<String> GENERATED_TEMPLATE_LABELS = List.of(CONTROLLER_UID, JOB_NAME, LEGACY_CONTROLLER_UID, LEGACY_JOB_NAME);

    private JobDefaults() {}

    /** On create: the generated selector and template labels, from metadata.uid and metadata.name. */
    public static void onCreate(ObjectNode job) {
        ObjectNode spec = object(job, "spec");
        if (spec == null || spec.path("manualSelector").asBoolean(false)) return;
        String uid = job.path("metadata").path("uid").asText("");
        String name = job.path("metadata").path("name").asText("");
        ObjectNode labels = templateLabels(spec);
        if (uid.isEmpty() || labels == null) return;
        spec.putObject("selector").putObject("matchLabels").put(CONTROLLER_UID, uid);
        labels.put(CONTROLLER_UID, uid).put(JOB_NAME, name).put(LEGACY_CONTROLLER_UID, uid).put(LEGACY_JOB_NAME, name);
    }

    /** On update: a body that left out the generated selector or labels, or the managedBy Kueue defaulted, keeps the stored ones. */
    public static void onUpdate(ObjectNode incoming, JsonNode stored) {
        JsonNode storedSpec = stored.path("spec");
        if (incoming.get("spec") instanceof ObjectNode incomingSpec && !incomingSpec.has("managedBy") && storedSpec.has("managedBy")) {
            incomingSpec.set("managedBy", storedSpec.get("managedBy").deepCopy());
        }
        if (storedSpec.path("manualSelector").asBoolean(false) || !storedSpec.path("selector").isObject()) return;
        ObjectNode spec = object(incoming, "spec");
        ObjectNode labels = spec == null ? null : templateLabels(spec);
        if (labels == null) return;
        if (!spec.has("selector")) spec.set("selector", storedSpec.get("selector").deepCopy());
        JsonNode storedLabels = storedSpec.path("template").path("metadata").path("labels");
        for (String key : GENERATED_TEMPLATE_LABELS) {
            if (!labels.has(key) && storedLabels.has(key)) labels.set(key, storedLabels.get(key));
        }
    }

    /** Kueue's webhook: a Job queued to a ClusterQueue with a MultiKueue check is managed by MultiKueue. */
    public static void managedByMultiKueue(ObjectNode job, String controllerName) {
        ObjectNode spec = object(job, "spec");
        if (spec != null && !spec.has("managedBy")) spec.put("managedBy", controllerName);
    }

    private static ObjectNode templateLabels(ObjectNode spec) {
        ObjectNode template = object(spec, "template");
        ObjectNode metadata = template == null ? null : object(template, "metadata");
        return metadata == null ? null : object(metadata, "labels");
    }

    /** The object under field, created when absent; null when something else (a string, a list) is there. */
    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode child = parent.get(field);
        if (child == null || child.isNull()) return parent.putObject(field);
        return child instanceof ObjectNode object ? object : null;
    }
}
