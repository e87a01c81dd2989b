package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.Labels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The Workload of a Kubeflow training job (PyTorchJob, MPIJob), as Kueue's kubeflowjob and mpijob
 * integrations derive it: one pod set per replica type present, in the kind's order (Master then
 * Worker; Launcher then Worker), named in lower case, counting {@code replicas} (default 1) pods of
 * the replica's template. The priority class comes from {@code spec.runPolicy.schedulingPolicy.priorityClass},
 * else the first replica template naming one; the kueue.x-k8s.io/priority-class label beats both.
 * The training operators' own rules are checked too: only the kind's replica types, and one replica of
 * the completing type (the master; the launcher, which an MPIJob must have).
 */
public final class KubeflowWorkloads {
    private KubeflowWorkloads() {}

    /** A Derivation for one kind, for the manager's hooks. */
    public static ObjectNode from(KubeflowJobKind kind, ObjectNode job, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(job, causes);
        String specsPath = "spec." + kind.replicaSpecsField();
        JsonNode specs = job.path("spec").path(kind.replicaSpecsField());
        if (!specs.isObject() || specs.isEmpty()) causes.add(FieldCause.required(specsPath));
        for (Iterator<String> it = specs.fieldNames(); it.hasNext(); ) {
            String type = it.next();
            if (!kind.replicaTypes().contains(type)) causes.add(FieldCause.notSupported(specsPath + "[" + type + "]", type, kind.replicaTypes()));
        }
        if (kind.completingReplicaRequired() && specs.isObject() && !specs.isEmpty() && !specs.has(kind.completingReplicaType())) {
            causes.add(FieldCause.required(specsPath + "[" + kind.completingReplicaType() + "]"));
        }

        List<ObjectNode> podSets = new ArrayList<>();
        RequestTotals totals = new RequestTotals();
        JsonNode prioritySpec = null;
        String prioritySpecPath = null;
        for (String type : kind.replicaTypes()) {
            JsonNode replica = specs.path(type);
            if (replica.isMissingNode() || replica.isNull()) continue;
            String path = specsPath + "[" + type + "]";
            int replicas = IntegerFields.optional(replica, "replicas", path + ".replicas", 0, 1, causes);
            if (type.equals(kind.completingReplicaType()) && replicas != 1) {
                causes.add(FieldCause.invalid(path + ".replicas", "Invalid value: " + replicas + ": must be 1"));
            }
            ObjectNode template = WorkloadFactory.podTemplate(replica.path("template"), path + ".template", causes);
            if (prioritySpec == null && !template.path("spec").path("priorityClassName").asText("").isEmpty()) {
                prioritySpec = template.path("spec");
                prioritySpecPath = path + ".template.spec";
            }
            totals.add(WorkloadFactory.perPod(template), replicas, path + ".replicas", causes);
            podSets.add(WorkloadFactory.podSet(KubeflowJobKind.podSetName(type), replicas, null, template));
        }
        WorkloadPriority priority = priority(job, prioritySpec, prioritySpecPath, resolver, causes);
        WorkloadFactory.throwIfAny(job, kind.kind(), name, causes);

        ObjectNode workload = WorkloadFactory.newWorkload(WorkloadNames.forOwner(kind.kind(), kind.group(), name, WorkloadFactory.uid(job)),
                WorkloadFactory.namespace(job), job);
        WorkloadFactory.ownerReferences(workload).add(WorkloadFactory.ownerReference(job, kind.apiVersion(), kind.kind(), true));
        WorkloadFactory.podSets(workload).addAll(podSets);
        priority.writeInto(WorkloadFactory.spec(workload));
        return workload;
    }

    private static WorkloadPriority priority(ObjectNode job, JsonNode templateSpec, String templateSpecPath,
                                             PriorityResolver resolver, List<FieldCause> causes) {
        String schedulingClass = job.path("spec").path("runPolicy").path("schedulingPolicy").path("priorityClass").asText("");
        boolean labelled = !job.path("metadata").path("labels").path(Labels.PRIORITY_CLASS).asText("").isEmpty();
        if (schedulingClass.isEmpty() || labelled) return WorkloadPriority.resolve(job, templateSpec, templateSpecPath, resolver, causes);
        Integer value = resolver.priorityClass(schedulingClass);
        if (value == null) {
            causes.add(FieldCause.notFound("spec.runPolicy.schedulingPolicy.priorityClass",
                    "priorityclasses.scheduling.k8s.io \"" + schedulingClass + "\" not found"));
            return new WorkloadPriority(null, 0);
        }
        return new WorkloadPriority(WorkloadPriority.priorityClassRef(schedulingClass), value);
    }
}
