package dev.berth.agent;

import dev.berth.protocol.TrainJobJobSet;
import dev.berth.protocol.TrainerApi;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A dispatched TrainJob's runtime (the manager puts it on the template under {@link TrainerApi#RUNTIME_ANNOTATION})
 * and the JobSet the Trainer will build from it, whose pod templates are what the agent admits against the nodes.
 */
final class TrainJobTemplates {
    private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization JSON =
            new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

    private TrainJobTemplates() {}

    /** The runtime the manager sent with the TrainJob, if any. */
    @SuppressWarnings("unchecked")
    static Optional<Map<String, Object>> runtime(Map<String, Object> trainJob) {
        Object annotation = TemplatePods.map(TemplatePods.map(trainJob, "metadata"), "annotations")
                .map(a -> a.get(TrainerApi.RUNTIME_ANNOTATION)).orElse(null);
        if (annotation == null) return Optional.empty();
        try {
            return Optional.of(JSON.unmarshal(annotation.toString(), Map.class));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The child JobSet as the Trainer builds it (a separate object: editing it leaves the TrainJob alone). */
    static Optional<Map<String, Object>> childJobSet(Map<String, Object> trainJob) {
        return runtime(trainJob).map(runtime -> {
            Map<String, Object> jobSet = new LinkedHashMap<>();
            jobSet.put("kind", "JobSet");
            jobSet.put("spec", TrainJobJobSet.spec(trainJob, runtime));
            return jobSet;
        });
    }
}
