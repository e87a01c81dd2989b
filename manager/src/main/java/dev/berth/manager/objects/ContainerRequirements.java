package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What kube-apiserver's validation requires of the containers of a pod spec, checked on every write
 * (create, replace, any patch): at least one container, and each container and init container with a
 * name and an image. A strategic merge patch applied as a plain merge patch used to drop a Job's image;
 * this keeps such a Job from being stored, whatever write produced it.
 */
public final class ContainerRequirements {
    private ContainerRequirements() {}

    /** The causes for a pod spec at path (as {@code spec.template.spec}); empty if it is acceptable. */
    public static List<FieldCause> missing(JsonNode podSpec, String path) {
        List<FieldCause> causes = new ArrayList<>();
        JsonNode containers = podSpec.path("containers");
        if (!containers.isArray() || containers.isEmpty()) causes.add(FieldCause.required(path + ".containers"));
        for (String list : List.of("initContainers", "containers")) {
            JsonNode entries = podSpec.path(list);
            if (!entries.isArray()) continue;
            for (int i = 0; i < entries.size(); i++) {
                String at = path + "." + list + "[" + i + "]";
                if (blank(entries.get(i).path("name"))) causes.add(FieldCause.required(at + ".name"));
                if (blank(entries.get(i).path("image"))) causes.add(FieldCause.required(at + ".image"));
            }
        }
        return causes;
    }

    /** Refuses a batch/v1 Job whose pod template lacks containers, or a container's name or image (422). */
    public static void checkJob(ObjectNode job) {
        List<FieldCause> causes = missing(job.path("spec").path("template").path("spec"), "spec.template.spec");
        if (!causes.isEmpty()) throw InvalidObjectException.invalid("Job.batch", job.path("metadata").path("name").asText(), causes);
    }

    private static boolean blank(JsonNode value) {
        return !value.isTextual() || value.textValue().isBlank();
    }
}
