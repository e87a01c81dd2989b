package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns what users submit (a batch/v1 Job, a JobSet, plain pods, or a Workload written directly) into
 * the v1beta2 Workload that queues for them, as Kueue's job integrations do. Every method collects all
 * problems and throws one {@link InvalidObjectException} (422) naming the fields.
 */
public final class WorkloadFactory {
    public static final int MAX_POD_SETS = 8;
    static final String MAIN_POD_SET = "main";
    static final String MIN_PARALLELISM_PATH = "metadata.annotations[" + Annotations.JOB_MIN_PARALLELISM + "]";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private WorkloadFactory() {}

    /** The Workload of a batch/v1 Job: one pod set {@code main}. */
    public static ObjectNode fromJob(ObjectNode job, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = requiredName(job, causes);
        JsonNode spec = job.path("spec");
        int count = jobPodCount(spec, "spec", causes);
        Integer minCount = jobMinCount(job, count, causes);
        ObjectNode template = podTemplate(spec.path("template"), "spec.template", causes);
        new RequestTotals().add(perPod(template), count, "spec.parallelism", causes);
        PodSetTopologyRequests.checkSliceSizeAtMost(template, count, "spec.template.metadata", causes);
        WorkloadPriority priority = WorkloadPriority.resolve(job, template.path("spec"), "spec.template.spec", resolver, causes);
        throwIfAny(job, KueueApi.JOB, name, causes);

        ObjectNode workload = newWorkload(WorkloadNames.forOwner(KueueApi.JOB, KueueApi.BATCH_GROUP, name, uid(job)),
                namespace(job), job);
        ownerReferences(workload).add(ownerReference(job, "batch/v1", KueueApi.JOB, true));
        ArrayNode podSets = podSets(workload);
        podSets.add(podSet(MAIN_POD_SET, count, minCount, template));
        priority.writeInto(spec(workload));
        return workload;
    }

    /** The Workload of a jobset.x-k8s.io JobSet: one pod set per replicated job. */
    public static ObjectNode fromJobSet(ObjectNode jobSet, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = requiredName(jobSet, causes);
        JsonNode replicatedJobs = jobSet.path("spec").path("replicatedJobs");
        if (!replicatedJobs.isArray() || replicatedJobs.isEmpty()) {
            causes.add(FieldCause.required("spec.replicatedJobs"));
        } else if (replicatedJobs.size() > MAX_POD_SETS) {
            causes.add(FieldCause.invalid("spec.replicatedJobs", "Too many: " + replicatedJobs.size() + ": must have at most " + MAX_POD_SETS + " items"));
        }
        ArrayNode podSets = JSON.arrayNode();
        RequestTotals totals = new RequestTotals();
        JsonNode prioritySpec = null;
        String prioritySpecPath = null;
        for (int i = 0; i < replicatedJobs.size(); i++) {
            String path = "spec.replicatedJobs[" + i + "]";
            JsonNode replicatedJob = replicatedJobs.path(i);
            String podSetName = replicatedJob.path("name").asText("");
            if (!WorkloadNormalizer.isDnsLabel(podSetName)) {
                causes.add(FieldCause.invalid(path + ".name", "Invalid value: \"" + podSetName + "\": must be a lowercase RFC 1123 label"));
            }
            int replicas = IntegerFields.optional(replicatedJob, "replicas", path + ".replicas", 0, 1, causes);
            JsonNode jobSpec = replicatedJob.path("template").path("spec");
            int jobPods = jobPodCount(jobSpec, path + ".template.spec", causes);
            ObjectNode template = podTemplate(jobSpec.path("template"), path + ".template.spec.template", causes);
            if (prioritySpec == null && !template.path("spec").path("priorityClassName").asText("").isEmpty()) {
                prioritySpec = template.path("spec");
                prioritySpecPath = path + ".template.spec.template.spec";
            }
            int pods;
            try {
                pods = Math.multiplyExact(replicas, jobPods);
            } catch (ArithmeticException tooMany) {
                causes.add(FieldCause.invalid(path + ".replicas", "Invalid value: " + replicas + ": " + replicas + " replicas of "
                        + jobPods + " pods each are more pods than a pod set can count (" + Integer.MAX_VALUE + ")"));
                pods = 0;
            }
            totals.add(perPod(template), pods, path + ".replicas", causes);
            PodSetTopologyRequests.checkSliceSizeAtMost(template, pods, path + ".template.spec.template.metadata", causes);
            podSets.add(podSet(podSetName, pods, null, template));
        }
        WorkloadPriority priority = WorkloadPriority.resolve(jobSet, prioritySpec, prioritySpecPath, resolver, causes);
        throwIfAny(jobSet, KueueApi.JOBSET, name, causes);

        ObjectNode workload = newWorkload(WorkloadNames.forOwner(KueueApi.JOBSET, KueueApi.JOBSET_GROUP, name, uid(jobSet)),
                namespace(jobSet), jobSet);
        ownerReferences(workload).add(ownerReference(jobSet, KueueApi.JOBSET_GROUP + "/" + KueueApi.JOBSET_VERSION, KueueApi.JOBSET, true));
        podSets(workload).addAll(podSets);
        priority.writeInto(spec(workload));
        return workload;
    }

    /** The Workload of a plain pod that is not part of a group: one pod set {@code main} of one pod. */
    public static ObjectNode fromSinglePod(ObjectNode pod, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = requiredName(pod, causes);
        ObjectNode template = podTemplateOf(pod, "", causes);
        WorkloadPriority priority = WorkloadPriority.resolve(pod, template.path("spec"), "spec", resolver, causes);
        throwIfAny(pod, KueueApi.POD, name, causes);

        ObjectNode workload = newWorkload(WorkloadNames.forOwner(KueueApi.POD, "", name, uid(pod)), namespace(pod), pod);
        ownerReferences(workload).add(ownerReference(pod, "v1", KueueApi.POD, true));
        podSets(workload).add(podSet(MAIN_POD_SET, 1, null, template));
        priority.writeInto(spec(workload));
        return workload;
    }

    /**
     * The Workload of a pod group: the pods labelled with the group name, grouped by shape into pod
     * sets. The Workload is named after the group and owned by every pod (none of them its controller,
     * since an object has at most one).
     */
    public static ObjectNode fromPodGroup(String groupName, List<ObjectNode> pods, PriorityResolver resolver) {
        PodGroup group = PodGroup.of(groupName, pods);
        ObjectNode first = pods.get(0);
        List<FieldCause> causes = new ArrayList<>();
        WorkloadPriority priority = WorkloadPriority.resolve(first, first.path("spec"), "spec", resolver, causes);
        throwIfAny(first, KueueApi.POD, first.path("metadata").path("name").asText(""), causes);

        ObjectNode workload = newWorkload(groupName, namespace(first), first);
        for (ObjectNode pod : pods) ownerReferences(workload).add(ownerReference(pod, "v1", KueueApi.POD, false));
        for (PodGroup.Shape shape : group.shapes()) {
            podSets(workload).add(podSet(shape.name(), shape.count(), null, podTemplateOf(shape.example(), "", new ArrayList<>())));
        }
        priority.writeInto(spec(workload));
        return workload;
    }

    /** A Workload written directly: validated, its priority class resolved, spec.active defaulted. */
    public static ObjectNode normalizeWorkload(ObjectNode workload, PriorityResolver resolver) {
        return WorkloadNormalizer.normalize(workload, resolver);
    }

    /** A Job's pods: parallelism (default 1), at most completions when that is set. */
    static int jobPodCount(JsonNode jobSpec, String path, List<FieldCause> causes) {
        int parallelism = IntegerFields.optional(jobSpec, "parallelism", path + ".parallelism", 0, 1, causes);
        Integer completions = IntegerFields.optional(jobSpec, "completions", path + ".completions", 0, null, causes);
        return completions != null && completions < parallelism ? completions : parallelism;
    }

    private static Integer jobMinCount(JsonNode job, int count, List<FieldCause> causes) {
        JsonNode annotation = job.path("metadata").path("annotations").path(Annotations.JOB_MIN_PARALLELISM);
        if (annotation.isMissingNode() || annotation.isNull()) return null;
        String text = annotation.asText();
        int minCount;
        try {
            minCount = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            causes.add(FieldCause.invalid(MIN_PARALLELISM_PATH, "Invalid value: \"" + text + "\": must be an integer"));
            return null;
        }
        if (minCount < 1) {
            causes.add(FieldCause.invalid(MIN_PARALLELISM_PATH, "Invalid value: \"" + text + "\": must be greater than 0"));
            return null;
        }
        if (minCount >= count) {
            causes.add(FieldCause.invalid(MIN_PARALLELISM_PATH, "Invalid value: \"" + text + "\": must be less than parallelism (" + count + ")"));
            return null;
        }
        return minCount;
    }

    /** A copy of a pod template, checked to have containers and readable requests. */
    static ObjectNode podTemplate(JsonNode template, String path, List<FieldCause> causes) {
        if (!template.isObject()) {
            causes.add(FieldCause.required(path));
            return JSON.objectNode();
        }
        ObjectNode copy = ((ObjectNode) template).deepCopy();
        checkPodSpec(copy.path("spec"), path + ".spec", causes);
        PodSetTopologyRequests.checkAnnotations(copy, path + ".metadata", causes);
        return copy;
    }

    /** The pod template of a plain pod: its labels, annotations and spec. */
    private static ObjectNode podTemplateOf(JsonNode pod, String pathPrefix, List<FieldCause> causes) {
        ObjectNode template = JSON.objectNode();
        ObjectNode metadata = template.putObject("metadata");
        JsonNode labels = pod.path("metadata").path("labels");
        if (labels.isObject()) metadata.set("labels", labels.deepCopy());
        JsonNode annotations = pod.path("metadata").path("annotations");
        if (annotations.isObject()) metadata.set("annotations", annotations.deepCopy());
        JsonNode spec = pod.path("spec");
        template.set("spec", spec.isObject() ? spec.deepCopy() : JSON.objectNode());
        checkPodSpec(template.path("spec"), pathPrefix + "spec", causes);
        return template;
    }

    /**
     * A pod of a pod group, checked before it is stored: its spec, and its requests times the group's
     * total count, so that the group's Workload, formed once the last pod arrives, is representable.
     */
    public static void checkPodGroupMember(ObjectNode pod) {
        List<FieldCause> causes = new ArrayList<>();
        Map<String, Long> perPod = checkPodSpec(pod.path("spec"), "spec", causes);
        String totalCount = pod.path("metadata").path("annotations").path(Annotations.POD_GROUP_TOTAL_COUNT).asText("");
        if (totalCount.matches("\\d{1,10}")) {
            new RequestTotals().add(perPod, Long.parseLong(totalCount), PodGroup.TOTAL_COUNT_PATH, causes);
        }
        throwIfAny(pod, KueueApi.POD, pod.path("metadata").path("name").asText(""), causes);
    }

    /** Checks a pod spec has containers and readable requests; gives its per-pod requests. */
    static Map<String, Long> checkPodSpec(JsonNode podSpec, String path, List<FieldCause> causes) {
        if (!podSpec.path("containers").isArray() || podSpec.path("containers").isEmpty()) {
            causes.add(FieldCause.required(path + ".containers"));
        }
        return podSpec.isObject() ? PodRequests.perPod((ObjectNode) podSpec, path, causes) : Map.of();
    }

    /** The per-pod requests of a checked template; its causes were reported when it was checked. */
    static Map<String, Long> perPod(ObjectNode template) {
        JsonNode podSpec = template.path("spec");
        return podSpec.isObject() ? PodRequests.perPod((ObjectNode) podSpec, "", new ArrayList<>()) : Map.of();
    }

    static ObjectNode podSet(String name, int count, Integer minCount, ObjectNode template) {
        ObjectNode podSet = JSON.objectNode();
        podSet.put("name", name);
        podSet.put("count", count);
        if (minCount != null) podSet.put("minCount", minCount);
        podSet.set("template", template);
        ObjectNode topologyRequest = PodSetTopologyRequests.fromAnnotations(template);
        if (topologyRequest != null) podSet.set("topologyRequest", topologyRequest);
        return podSet;
    }

    static ObjectNode newWorkload(String name, String namespace, JsonNode owner) {
        ObjectNode workload = JSON.objectNode();
        workload.put("apiVersion", KueueApi.API_VERSION);
        workload.put("kind", KueueApi.WORKLOAD);
        ObjectNode metadata = workload.putObject("metadata");
        metadata.put("name", name);
        if (namespace != null) metadata.put("namespace", namespace);
        String queueName = owner.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText("");
        ObjectNode labels = metadata.putObject("labels");
        if (!queueName.isEmpty()) labels.put(Labels.QUEUE_NAME, queueName);
        metadata.putArray("ownerReferences");
        ObjectNode spec = workload.putObject("spec");
        if (!queueName.isEmpty()) spec.put("queueName", queueName);
        spec.putArray("podSets");
        spec.put("priority", 0);
        spec.put("active", true);
        maximumExecutionTime(owner).ifPresent(seconds -> spec.put("maximumExecutionTimeSeconds", seconds));
        return workload;
    }

    /**
     * The Job's kueue.x-k8s.io/max-exec-time-seconds label, which Kueue copies into the Workload's
     * spec.maximumExecutionTimeSeconds; a value that is not a positive integer is left out, as Kueue does.
     */
    static java.util.OptionalInt maximumExecutionTime(JsonNode owner) {
        String label = owner.path("metadata").path("labels").path(Labels.MAX_EXEC_TIME_SECONDS).asText("");
        try {
            int seconds = Integer.parseInt(label);
            return seconds > 0 ? java.util.OptionalInt.of(seconds) : java.util.OptionalInt.empty();
        } catch (NumberFormatException notANumber) {
            return java.util.OptionalInt.empty();
        }
    }

    static ObjectNode ownerReference(JsonNode owner, String defaultApiVersion, String kind, boolean controller) {
        ObjectNode reference = JSON.objectNode();
        reference.put("apiVersion", owner.path("apiVersion").asText(defaultApiVersion));
        reference.put("kind", kind);
        reference.put("name", owner.path("metadata").path("name").asText());
        reference.put("uid", uid(owner));
        reference.put("controller", controller);
        reference.put("blockOwnerDeletion", true);
        return reference;
    }

    static String requiredName(JsonNode owner, List<FieldCause> causes) {
        String name = owner.path("metadata").path("name").asText("");
        if (name.isEmpty()) causes.add(FieldCause.required("metadata.name"));
        return name;
    }

    static String uid(JsonNode owner) {
        return owner.path("metadata").path("uid").asText("");
    }

    static String namespace(JsonNode owner) {
        JsonNode namespace = owner.path("metadata").path("namespace");
        return namespace.isTextual() ? namespace.textValue() : null;
    }

    static ObjectNode spec(ObjectNode workload) {
        return (ObjectNode) workload.get("spec");
    }

    static ArrayNode podSets(ObjectNode workload) {
        return (ArrayNode) workload.get("spec").get("podSets");
    }

    static ArrayNode ownerReferences(ObjectNode workload) {
        return (ArrayNode) workload.get("metadata").get("ownerReferences");
    }

    static void throwIfAny(JsonNode object, String kind, String name, List<FieldCause> causes) {
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(object.path("kind").asText(kind), name, causes);
    }
}
