package dev.berth.protocol;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JobSet Kubeflow Trainer builds for a TrainJob from its runtime, on JSON-like maps (the agent and the
 * virtual cluster's Trainer use it; the manager has the same rule on Jackson trees): the runtime's
 * {@code spec.template.spec}, with the TrainJob's {@code trainer.numNodes} (default the runtime's
 * {@code mlPolicy.numNodes}) as the trainer step's parallelism and completions and its
 * {@code trainer.resourcesPerNode} as the resources of that step's {@code node} container.
 */
public final class TrainJobJobSet {
    private TrainJobJobSet() {}

    /** The child JobSet's spec (a deep copy: editing it leaves the runtime alone). */
    public static Map<String, Object> spec(Map<String, Object> trainJob, Map<String, Object> runtime) {
        Map<String, Object> runtimeSpec = map(runtime.get("spec"));
        Map<String, Object> spec = map(JsonValues.deepCopy(map(map(runtimeSpec.get("template")).get("spec"))));
        Map<String, Object> trainer = map(map(trainJob.get("spec")).get("trainer"));
        Object numNodes = trainer.get("numNodes") instanceof Number n ? n : map(runtimeSpec.get("mlPolicy")).get("numNodes");
        Object resources = trainer.get("resourcesPerNode");
        for (Object item : list(spec.get("replicatedJobs"))) {
            Map<String, Object> replicatedJob = map(item);
            if (!isTrainerStep(replicatedJob)) continue;
            Map<String, Object> jobSpec = map(map(replicatedJob.get("template")).get("spec"));
            if (numNodes instanceof Number n) {
                jobSpec.put("parallelism", n.intValue());
                jobSpec.put("completions", n.intValue());
            }
            if (resources instanceof Map<?, ?> r) {
                for (Object container : list(map(map(jobSpec.get("template")).get("spec")).get("containers"))) {
                    if (TrainerApi.TRAINER_NODE.equals(map(container).get("name"))) map(container).put("resources", JsonValues.deepCopy(r));
                }
            }
        }
        return spec;
    }

    /** Whether a runtime's replicatedJob is the trainer step: named node, or labelled as the trainer's ancestor. */
    public static boolean isTrainerStep(Map<String, Object> replicatedJob) {
        Object ancestor = map(map(map(replicatedJob.get("template")).get("metadata")).get("labels")).get(TrainerApi.ANCESTOR_LABEL);
        return TrainerApi.ANCESTOR_TRAINER.equals(ancestor) || TrainerApi.TRAINER_NODE.equals(replicatedJob.get("name"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }
}
