package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.TrainerApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Workload of a Kubeflow Trainer v2 TrainJob, as Kueue's trainjob integration derives it: the JobSet the
 * Trainer would build from the runtime the TrainJob names ({@code spec.runtimeRef}) with the TrainJob's
 * {@code spec.trainer.numNodes} (default: the runtime's {@code mlPolicy.numNodes}) as the trainer step's
 * parallelism and completions and {@code spec.trainer.resourcesPerNode} as its {@code node} container's
 * resources, then that JobSet's pod sets (one per replicatedJob, replicas x parallelism pods). A runtime that
 * does not exist is refused naming {@code spec.runtimeRef.name} (Kueue creates no Workload and retries).
 */
public final class TrainJobWorkloads {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Finds a stored runtime by kind (TrainingRuntime or ClusterTrainingRuntime), namespace ("" when cluster-scoped) and name. */
    @FunctionalInterface
    public interface Runtimes {
        Optional<? extends JsonNode> find(TrainerApi.Kind kind, String namespace, String name);
    }

    private TrainJobWorkloads() {}

    public static ObjectNode from(ObjectNode trainJob, Runtimes runtimes, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(trainJob, causes);
        Optional<JsonNode> runtime = runtime(trainJob, runtimes, causes);
        WorkloadFactory.throwIfAny(trainJob, TrainerApi.TRAIN_JOB, name, causes);

        ObjectNode jobSet = childJobSet(trainJob, runtime.orElseThrow());
        ObjectNode workload = WorkloadFactory.fromJobSet(jobSet, resolver);
        ((ObjectNode) workload.get("metadata")).put("name",
                WorkloadNames.forOwner(TrainerApi.TRAIN_JOB, TrainerApi.GROUP, name, WorkloadFactory.uid(trainJob)));
        ArrayNode owners = WorkloadFactory.ownerReferences(workload);
        owners.removeAll();
        owners.add(WorkloadFactory.ownerReference(trainJob, TrainerApi.API_VERSION, TrainerApi.TRAIN_JOB, true));
        return workload;
    }

    /**
     * The JobSet the Trainer builds for this TrainJob from its runtime (Trainer's jobset plugin; Kueue's
     * getChildJobSet): the runtime's template with numNodes and resourcesPerNode applied to the trainer step.
     * The agent and the virtual cluster's Trainer build the same JobSet.
     */
    public static ObjectNode childJobSet(JsonNode trainJob, JsonNode runtime) {
        ObjectNode jobSet = JSON.createObjectNode();
        jobSet.put("apiVersion", dev.berth.protocol.KueueApi.JOBSET_GROUP + "/" + dev.berth.protocol.KueueApi.JOBSET_VERSION);
        jobSet.put("kind", dev.berth.protocol.KueueApi.JOBSET);
        ObjectNode metadata = trainJob.path("metadata").isObject() ? ((ObjectNode) trainJob.get("metadata")).deepCopy() : JSON.createObjectNode();
        jobSet.set("metadata", metadata);
        JsonNode template = runtime.path("spec").path("template").path("spec");
        ObjectNode spec = template.isObject() ? ((ObjectNode) template).deepCopy() : JSON.createObjectNode();
        jobSet.set("spec", spec);
        JsonNode trainer = trainJob.path("spec").path("trainer");
        JsonNode numNodes = trainer.path("numNodes").isIntegralNumber() ? trainer.path("numNodes")
                : runtime.path("spec").path("mlPolicy").path("numNodes");
        JsonNode resources = trainer.path("resourcesPerNode");
        for (JsonNode replicatedJob : spec.path("replicatedJobs")) {
            if (!isTrainerStep(replicatedJob) || !(replicatedJob.path("template").path("spec") instanceof ObjectNode jobSpec)) continue;
            if (numNodes.isIntegralNumber()) {
                jobSpec.put("parallelism", numNodes.asInt());
                jobSpec.put("completions", numNodes.asInt());
            }
            if (resources.isObject()) {
                for (JsonNode container : jobSpec.path("template").path("spec").path("containers")) {
                    if (container instanceof ObjectNode c && TrainerApi.TRAINER_NODE.equals(c.path("name").asText())) {
                        c.set("resources", resources.deepCopy());
                    }
                }
            }
        }
        return jobSet;
    }

    static boolean isTrainerStep(JsonNode replicatedJob) {
        String ancestor = replicatedJob.path("template").path("metadata").path("labels").path(TrainerApi.ANCESTOR_LABEL).asText("");
        return ancestor.equals(TrainerApi.ANCESTOR_TRAINER) || TrainerApi.TRAINER_NODE.equals(replicatedJob.path("name").asText());
    }

    private static Optional<JsonNode> runtime(ObjectNode trainJob, Runtimes runtimes, List<FieldCause> causes) {
        JsonNode ref = trainJob.path("spec").path("runtimeRef");
        String refName = ref.path("name").asText("");
        if (refName.isEmpty()) {
            causes.add(FieldCause.required("spec.runtimeRef.name"));
            return Optional.empty();
        }
        String apiGroup = ref.path("apiGroup").asText(TrainerApi.GROUP);
        if (!apiGroup.equals(TrainerApi.GROUP)) {
            causes.add(FieldCause.notSupported("spec.runtimeRef.apiGroup", apiGroup, List.of(TrainerApi.GROUP)));
            return Optional.empty();
        }
        String refKind = ref.path("kind").asText("");
        Optional<TrainerApi.Kind> kind = TrainerApi.runtimeKind(refKind);
        if (kind.isEmpty()) {
            causes.add(FieldCause.notSupported("spec.runtimeRef.kind", refKind,
                    List.of(TrainerApi.CLUSTER_TRAINING_RUNTIME, TrainerApi.TRAINING_RUNTIME)));
            return Optional.empty();
        }
        String namespace = kind.get().namespaced() ? trainJob.path("metadata").path("namespace").asText("") : "";
        Optional<JsonNode> found = runtimes.find(kind.get(), namespace, refName).map(JsonNode.class::cast);
        if (found.isEmpty()) {
            String where = kind.get().namespaced() ? " in namespace \"" + namespace + "\"" : "";
            causes.add(FieldCause.notFound("spec.runtimeRef.name", "Not found: \"" + refName + "\": no "
                    + kind.get().kind() + " named \"" + refName + "\"" + where));
        }
        return found;
    }
}
