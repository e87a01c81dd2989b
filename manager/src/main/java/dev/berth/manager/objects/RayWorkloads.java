package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.RayApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Workload of a KubeRay RayCluster or RayJob, as Kueue's raycluster and rayjob integrations derive it
 * (raycluster.BuildPodSets, RayJob.PodSets): a {@code head} pod set of one pod, then one pod set per
 * worker group named by its groupName in lower case, counting {@code replicas} (default 1) times
 * {@code numOfHosts}; minReplicas and maxReplicas do not count. A RayJob in K8sJobMode (the default) adds
 * a {@code submitter} pod set of one pod: its submitterPodTemplate, else KubeRay's default submitter
 * (the head's image, 500m CPU and 200Mi requested); in SidecarMode that default submitter container is
 * added to the head pod set instead. The priority class is the first pod set's naming one, under the
 * kueue.x-k8s.io/priority-class label. Kueue's webhook rules are applied at create: no in-tree autoscaling
 * (Kueue allows it only with workload slicing, which Berth does not have), no worker group named head,
 * at most 8 pod sets; a RayJob must bring its own cluster spec and shut it down when it finishes.
 */
public final class RayWorkloads {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private RayWorkloads() {}

    /** A pod set with the field path of its pod spec, for errors about its priority class. */
    private record Draft(ObjectNode podSet, String specPath) {}

    public static ObjectNode fromRayCluster(ObjectNode cluster, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(cluster, causes);
        List<Draft> podSets = clusterPodSets(cluster.path("spec"), "spec", null, causes);
        return workload(cluster, RayApi.RAY_CLUSTER_KIND, name, podSets, resolver, causes);
    }

    public static ObjectNode fromRayJob(ObjectNode job, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(job, causes);
        JsonNode spec = job.path("spec");
        String mode = spec.path("submissionMode").asText(RayApi.K8S_JOB_MODE);
        if (!RayApi.SUBMISSION_MODES.contains(mode)) causes.add(FieldCause.notSupported("spec.submissionMode", mode, RayApi.SUBMISSION_MODES));
        JsonNode clusterSpec = spec.path("rayClusterSpec");
        boolean hasSelector = spec.path("clusterSelector").isObject() && !spec.path("clusterSelector").isEmpty();
        if (hasSelector && clusterSpec.isObject()) {
            causes.add(FieldCause.invalid("spec.clusterSelector", "Invalid value: a kueue managed job should not use an existing cluster"));
        }
        if (!clusterSpec.isObject()) {
            causes.add(FieldCause.required("spec.rayClusterSpec"));
            WorkloadFactory.throwIfAny(job, RayApi.RAY_JOB, name, causes);
        }
        if (!spec.path("shutdownAfterJobFinishes").asBoolean(false)) {
            causes.add(FieldCause.invalid("spec.shutdownAfterJobFinishes",
                    "Invalid value: false: a kueue managed job should delete the cluster after finishing"));
        }
        List<Draft> podSets = clusterPodSets(clusterSpec, "spec.rayClusterSpec", RayApi.SIDECAR_MODE.equals(mode) ? submitterContainer() : null, causes);
        if (RayApi.K8S_JOB_MODE.equals(mode)) {
            ObjectNode submitter = spec.path("submitterPodTemplate").isObject()
                    ? WorkloadFactory.podTemplate(spec.path("submitterPodTemplate"), "spec.submitterPodTemplate", causes)
                    : defaultSubmitterTemplate(clusterSpec);
            podSets.add(new Draft(WorkloadFactory.podSet(RayApi.SUBMITTER_POD_SET, 1, null, submitter), "spec.submitterPodTemplate.spec"));
        }
        return workload(job, RayApi.RAY_JOB_KIND, name, podSets, resolver, causes);
    }

    /** KubeRay's default submitter pod (common/job.go), as Kueue counts it when the RayJob gives none. */
    public static ObjectNode defaultSubmitterTemplate(JsonNode clusterSpec) {
        ObjectNode template = JSON.objectNode();
        ObjectNode podSpec = template.putObject("spec");
        ObjectNode container = submitterContainer();
        String image = clusterSpec.path("headGroupSpec").path("template").path("spec").path("containers").path(0).path("image").asText("");
        if (!image.isEmpty()) container.put("image", image);
        podSpec.putArray("containers").add(container);
        podSpec.put("restartPolicy", "Never");
        return template;
    }

    private static ObjectNode submitterContainer() {
        ObjectNode container = JSON.objectNode();
        container.put("name", "ray-job-submitter");
        ObjectNode resources = container.putObject("resources");
        resources.putObject("requests").put("cpu", "500m").put("memory", "200Mi");
        resources.putObject("limits").put("cpu", "1").put("memory", "1Gi");
        return container;
    }

    private static List<Draft> clusterPodSets(JsonNode clusterSpec, String path, ObjectNode headSidecar, List<FieldCause> causes) {
        List<Draft> podSets = new ArrayList<>();
        if (clusterSpec.path("enableInTreeAutoscaling").asBoolean(false)) {
            causes.add(FieldCause.invalid(path + ".enableInTreeAutoscaling",
                    "Invalid value: true: a kueue managed job should only use autoscaling when workload slicing is enabled"));
        }
        ObjectNode head = WorkloadFactory.podTemplate(clusterSpec.path("headGroupSpec").path("template"), path + ".headGroupSpec.template", causes);
        if (headSidecar != null && head.path("spec").path("containers").isArray()) ((ArrayNode) head.path("spec").path("containers")).add(headSidecar);
        podSets.add(new Draft(WorkloadFactory.podSet(RayApi.HEAD_POD_SET, 1, null, head), path + ".headGroupSpec.template.spec"));
        JsonNode groups = clusterSpec.path("workerGroupSpecs");
        if (groups.size() + 1 > WorkloadFactory.MAX_POD_SETS) {
            causes.add(FieldCause.invalid(path + ".workerGroupSpecs",
                    "Too many: " + (groups.size() + 1) + ": must have at most " + WorkloadFactory.MAX_POD_SETS + " items"));
        }
        RequestTotals totals = new RequestTotals();
        Set<String> names = new HashSet<>(Set.of(RayApi.HEAD_POD_SET));
        for (int i = 0; i < groups.size(); i++) {
            String groupPath = path + ".workerGroupSpecs[" + i + "]";
            JsonNode group = groups.path(i);
            String groupName = group.path("groupName").asText("");
            String podSetName = RayApi.workerPodSetName(groupName);
            if (groupName.isEmpty()) {
                causes.add(FieldCause.required(groupPath + ".groupName"));
            } else if (RayApi.HEAD_POD_SET.equals(podSetName)) {
                causes.add(new FieldCause(groupPath + ".groupName", "Forbidden: \"head\" is reserved for the head group", "FieldValueForbidden"));
            } else if (!WorkloadNormalizer.isDnsLabel(podSetName)) {
                causes.add(FieldCause.invalid(groupPath + ".groupName", "Invalid value: \"" + groupName + "\": must be an RFC 1123 label"));
            } else if (!names.add(podSetName)) {
                causes.add(FieldCause.invalid(groupPath + ".groupName", "Duplicate value: \"" + groupName + "\""));
            }
            int replicas = IntegerFields.optional(group, "replicas", groupPath + ".replicas", 0, 1, causes);
            int hosts = IntegerFields.optional(group, "numOfHosts", groupPath + ".numOfHosts", 0, 1, causes);
            long count = (long) replicas * Math.max(hosts, 1);
            if (count > Integer.MAX_VALUE) {
                causes.add(FieldCause.invalid(groupPath + ".replicas", "Invalid value: " + replicas + ": " + replicas + " replicas of "
                        + hosts + " hosts are more pods than a pod set can count (" + Integer.MAX_VALUE + ")"));
                count = 0;
            }
            ObjectNode template = WorkloadFactory.podTemplate(group.path("template"), groupPath + ".template", causes);
            totals.add(WorkloadFactory.perPod(template), count, groupPath + ".replicas", causes);
            podSets.add(new Draft(WorkloadFactory.podSet(podSetName, (int) count, null, template), groupPath + ".template.spec"));
        }
        return podSets;
    }

    private static ObjectNode workload(ObjectNode owner, RayApi.Kind kind, String name, List<Draft> podSets,
                                       PriorityResolver resolver, List<FieldCause> causes) {
        JsonNode prioritySpec = null;
        String prioritySpecPath = null;
        for (Draft draft : podSets) {
            if (!draft.podSet().path("template").path("spec").path("priorityClassName").asText("").isEmpty()) {
                prioritySpec = draft.podSet().path("template").path("spec");
                prioritySpecPath = draft.specPath();
                break;
            }
        }
        WorkloadPriority priority = WorkloadPriority.resolve(owner, prioritySpec, prioritySpecPath, resolver, causes);
        WorkloadFactory.throwIfAny(owner, kind.kind(), name, causes);
        ObjectNode workload = WorkloadFactory.newWorkload(WorkloadNames.forOwner(kind.kind(), kind.group(), name, WorkloadFactory.uid(owner)),
                WorkloadFactory.namespace(owner), owner);
        WorkloadFactory.ownerReferences(workload).add(WorkloadFactory.ownerReference(owner, kind.apiVersion(), kind.kind(), true));
        podSets.forEach(draft -> WorkloadFactory.podSets(workload).add(draft.podSet()));
        priority.writeInto(WorkloadFactory.spec(workload));
        return workload;
    }
}
