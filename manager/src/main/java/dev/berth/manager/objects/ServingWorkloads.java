package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.ServingKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The Workload of a serving kind (Deployment, StatefulSet, LeaderWorkerSet), admitted as long-running.
 * <ul>
 * <li>StatefulSet: one pod set {@code main} of {@code spec.replicas} (default 1) pods of {@code spec.template},
 *     as Kueue's statefulset integration builds its pod-group Workload.</li>
 * <li>Deployment: the same shape. Kueue admits a Deployment's pods one by one as plain pods; Berth dispatches the
 *     whole Deployment to one worker cluster, so its pods are one pod set (docs/semantics.md).</li>
 * <li>LeaderWorkerSet: Kueue's pod sets of one group, {@code leader} (1, {@code leaderTemplate}) and {@code worker}
 *     ({@code size}-1, {@code workerTemplate}), or {@code main} ({@code size}) without a leader template; Kueue makes
 *     one Workload per group, Berth one Workload for all {@code replicas} groups (each pod set times replicas).</li>
 * </ul>
 * The priority class is the first template's; the kueue.x-k8s.io/priority-class label beats it.
 */
public final class ServingWorkloads {
    private ServingWorkloads() {}

    /** One pod set to derive: its name, pod count, the template and where it sits in the object. */
    private record Part(String name, int count, JsonNode template, String path) {}

    public static ObjectNode from(ServingKind kind, ObjectNode object, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(object, causes);
        List<Part> parts = kind.equals(ServingKind.LEADER_WORKER_SET) ? groups(object, causes) : replicas(object, causes);
        List<ObjectNode> podSets = new ArrayList<>();
        RequestTotals totals = new RequestTotals();
        JsonNode prioritySpec = null;
        String prioritySpecPath = null;
        for (Part part : parts) {
            ObjectNode template = WorkloadFactory.podTemplate(part.template(), part.path(), causes);
            if (prioritySpec == null && !template.path("spec").path("priorityClassName").asText("").isEmpty()) {
                prioritySpec = template.path("spec");
                prioritySpecPath = part.path() + ".spec";
            }
            totals.add(WorkloadFactory.perPod(template), part.count(), "spec.replicas", causes);
            podSets.add(WorkloadFactory.podSet(part.name(), part.count(), null, template));
        }
        WorkloadPriority priority = WorkloadPriority.resolve(object, prioritySpec, prioritySpecPath, resolver, causes);
        WorkloadFactory.throwIfAny(object, kind.kind(), name, causes);

        ObjectNode workload = WorkloadFactory.newWorkload(WorkloadNames.forOwner(kind.kind(), kind.group(), name, admissionUid(object)),
                WorkloadFactory.namespace(object), object);
        WorkloadFactory.ownerReferences(workload).add(WorkloadFactory.ownerReference(object, kind.apiVersion(), kind.kind(), true));
        WorkloadFactory.podSets(workload).addAll(podSets);
        priority.writeInto(WorkloadFactory.spec(workload));
        return workload;
    }

    /**
     * The uid the Workload's name is derived from: the object's, and from the second generation on (a Workload
     * queued again after a resize) the object's with its generation, so the new Workload never meets the old one
     * while that is still stopping its copy.
     */
    private static String admissionUid(JsonNode object) {
        long generation = object.path("metadata").path("generation").asLong(1);
        String uid = WorkloadFactory.uid(object);
        return generation > 1 ? uid + "-" + generation : uid;
    }

    /** The pods a serving object asks for (spec.replicas, default 1); zero means it is scaled down. */
    public static int replicas(JsonNode object) {
        JsonNode replicas = object.path("spec").path("replicas");
        return replicas.canConvertToInt() ? replicas.asInt() : 1;
    }

    private static List<Part> replicas(ObjectNode object, List<FieldCause> causes) {
        int replicas = IntegerFields.optional(object.path("spec"), "replicas", "spec.replicas", 0, 1, causes);
        return List.of(new Part(ServingKind.MAIN_POD_SET, replicas, object.path("spec").path("template"), "spec.template"));
    }

    private static List<Part> groups(ObjectNode object, List<FieldCause> causes) {
        JsonNode spec = object.path("spec");
        int replicas = IntegerFields.optional(spec, "replicas", "spec.replicas", 0, 1, causes);
        JsonNode lwt = spec.path("leaderWorkerTemplate");
        if (!lwt.isObject()) {
            causes.add(FieldCause.required("spec.leaderWorkerTemplate"));
            return List.of();
        }
        int size = IntegerFields.optional(lwt, "size", "spec.leaderWorkerTemplate.size", 1, 1, causes);
        JsonNode workerTemplate = lwt.path("workerTemplate");
        String workerPath = "spec.leaderWorkerTemplate.workerTemplate";
        if (!lwt.path("leaderTemplate").isObject()) {
            return List.of(new Part(ServingKind.MAIN_POD_SET, replicas * size, workerTemplate, workerPath));
        }
        List<Part> parts = new ArrayList<>();
        parts.add(new Part(ServingKind.LEADER_POD_SET, replicas, lwt.path("leaderTemplate"), "spec.leaderWorkerTemplate.leaderTemplate"));
        if (size > 1) parts.add(new Part(ServingKind.WORKER_POD_SET, replicas * (size - 1), workerTemplate, workerPath));
        return parts;
    }
}
