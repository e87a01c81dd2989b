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

    /**
     * Writes what the agent put on the child JobSet's pod templates (flavor nodeSelector and tolerations, topology
     * affinity, the attempt's labels) into the TrainJob's {@code spec.podTemplateOverrides}, one per replicatedJob,
     * as Kueue's trainjob integration hands its pod-set placement to the Trainer (v2.0 to v2.2; v2.3 moved it to
     * runtimePatches).
     */
    static void writeOverrides(Map<String, Object> trainJob, Map<String, Object> jobSet) {
        java.util.List<Object> overrides = new java.util.ArrayList<>(TemplatePods.list(TemplatePods.mapOrCreate(trainJob, "spec"), "podTemplateOverrides"));
        for (Object item : TemplatePods.list(TemplatePods.map(jobSet, "spec").orElse(Map.of()), "replicatedJobs")) {
            if (!(item instanceof Map<?, ?> rj)) continue;
            Map<String, Object> replicatedJob = TemplatePods.cast(rj);
            Map<String, Object> template = TemplatePods.map(TemplatePods.map(replicatedJob, "template").flatMap(t -> TemplatePods.map(t, "spec")), "template")
                    .orElse(Map.of());
            Map<String, Object> podSpec = TemplatePods.map(template, "spec").orElse(Map.of());
            Map<String, Object> overrideSpec = new LinkedHashMap<>();
            for (String field : java.util.List.of("nodeSelector", "tolerations", "affinity")) {
                if (podSpec.get(field) != null) overrideSpec.put(field, podSpec.get(field));
            }
            Map<String, Object> override = new LinkedHashMap<>();
            override.put("targetJobs", java.util.List.of(Map.of("name", String.valueOf(replicatedJob.get("name")))));
            TemplatePods.map(template, "metadata").flatMap(m -> TemplatePods.map(m, "labels"))
                    .ifPresent(labels -> override.put("metadata", Map.of("labels", labels)));
            override.put("spec", overrideSpec);
            overrides.add(override);
        }
        TemplatePods.mapOrCreate(trainJob, "spec").put("podTemplateOverrides", overrides);
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
