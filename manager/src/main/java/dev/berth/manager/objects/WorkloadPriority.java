package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.List;

/**
 * The priority of a workload and the class it came from (null when none), resolved in Kueue's order:
 * the kueue.x-k8s.io/priority-class label naming a WorkloadPriorityClass, then the pod template's
 * priorityClassName, then the globalDefault PriorityClass, then 0.
 */
record WorkloadPriority(ObjectNode classRef, int value) {
    static final String PRIORITY_CLASS_LABEL_PATH = "metadata.labels[" + Labels.PRIORITY_CLASS + "]";

    /**
     * @param owner            the job or pod whose labels may name a WorkloadPriorityClass
     * @param podSpec          the pod spec whose priorityClassName counts next (may be null)
     * @param podSpecPath      the field path of that pod spec, for errors
     */
    static WorkloadPriority resolve(JsonNode owner, JsonNode podSpec, String podSpecPath,
                                    PriorityResolver resolver, List<FieldCause> into) {
        String workloadClass = owner.path("metadata").path("labels").path(Labels.PRIORITY_CLASS).asText("");
        if (!workloadClass.isEmpty()) {
            Integer value = resolver.workloadPriorityClass(workloadClass);
            if (value == null) {
                into.add(FieldCause.notFound(PRIORITY_CLASS_LABEL_PATH,
                        "workloadpriorityclasses.kueue.x-k8s.io \"" + workloadClass + "\" not found"));
                return new WorkloadPriority(null, 0);
            }
            return new WorkloadPriority(workloadPriorityClassRef(workloadClass), value);
        }
        String podClass = podSpec == null ? "" : podSpec.path("priorityClassName").asText("");
        if (!podClass.isEmpty()) {
            Integer value = resolver.priorityClass(podClass);
            if (value == null) {
                into.add(FieldCause.notFound(podSpecPath + ".priorityClassName",
                        "priorityclasses.scheduling.k8s.io \"" + podClass + "\" not found"));
                return new WorkloadPriority(null, 0);
            }
            return new WorkloadPriority(priorityClassRef(podClass), value);
        }
        PriorityClassInfo fallback = resolver.defaultPriorityClass();
        if (fallback != null) return new WorkloadPriority(priorityClassRef(fallback.name()), fallback.value());
        return new WorkloadPriority(null, 0);
    }

    static ObjectNode workloadPriorityClassRef(String name) {
        return classRef(KueueApi.GROUP, KueueApi.WORKLOAD_PRIORITY_CLASS, name);
    }

    static ObjectNode priorityClassRef(String name) {
        return classRef(KueueApi.SCHEDULING_GROUP, KueueApi.PRIORITY_CLASS, name);
    }

    private static ObjectNode classRef(String group, String kind, String name) {
        ObjectNode ref = JsonNodeFactory.instance.objectNode();
        ref.put("group", group);
        ref.put("kind", kind);
        ref.put("name", name);
        return ref;
    }

    /** Writes spec.priorityClassRef (when there is one) and spec.priority. */
    void writeInto(ObjectNode spec) {
        if (classRef != null) spec.set("priorityClassRef", classRef.deepCopy());
        else spec.remove("priorityClassRef");
        spec.put("priority", value);
    }
}
