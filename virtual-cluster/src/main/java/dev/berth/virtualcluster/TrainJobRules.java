package dev.berth.virtualcluster;

import dev.berth.protocol.TrainJobJobSet;
import dev.berth.protocol.TrainerApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubeflow Trainer v2's TrainJob controller, as plain rules: the child JobSet (named as the TrainJob, its
 * runtime's template with numNodes and resourcesPerNode applied, the TrainJob's labels on the JobSet and on
 * every pod template, suspended while the TrainJob is), and the TrainJob's status read from that JobSet
 * (Complete when the JobSet completed, that is when the trainer node pods succeeded; Failed when it failed;
 * jobsStatus per replicatedJob).
 */
final class TrainJobRules {
    private TrainJobRules() {}

    static Map<String, Object> childJobSet(String namespace, String name, String uid, Map<String, String> labels,
                                           Map<String, Object> trainJobSpec, Map<String, Object> runtime) {
        Map<String, Object> trainJob = Map.of("spec", trainJobSpec);
        Map<String, Object> spec = TrainJobJobSet.spec(trainJob, runtime);
        spec.put("suspend", Boolean.TRUE.equals(trainJobSpec.get("suspend")));
        for (Object replicatedJob : list(spec.get("replicatedJobs"))) {
            Map<String, Object> podTemplate = map(map(map(map(replicatedJob).get("template")).get("spec")).get("template"));
            Map<String, Object> metadata = map(podTemplate.computeIfAbsent("metadata", k -> new LinkedHashMap<>()));
            Map<String, Object> podLabels = map(metadata.computeIfAbsent("labels", k -> new LinkedHashMap<>()));
            podLabels.putAll(labels);
            applyOverrides(String.valueOf(map(replicatedJob).get("name")), podTemplate, list(trainJobSpec.get("podTemplateOverrides")));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        metadata.put("labels", new LinkedHashMap<>(labels));
        Map<String, Object> owner = new LinkedHashMap<>();
        owner.put("apiVersion", TrainerApi.API_VERSION);
        owner.put("kind", TrainerApi.TRAIN_JOB);
        owner.put("name", name);
        owner.put("uid", uid);
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        metadata.put("ownerReferences", List.of(owner));
        Map<String, Object> jobSet = new LinkedHashMap<>();
        jobSet.put("apiVersion", JobSetController.API_VERSION);
        jobSet.put("kind", JobSetController.KIND);
        jobSet.put("metadata", metadata);
        jobSet.put("spec", spec);
        return jobSet;
    }

    /**
     * The Trainer's podTemplateOverrides for one replicatedJob: labels and annotations added, nodeSelector entries
     * added, tolerations appended, affinity replaced.
     */
    @SuppressWarnings("unchecked")
    static void applyOverrides(String replicatedJob, Map<String, Object> podTemplate, List<Object> overrides) {
        for (Object item : overrides) {
            Map<String, Object> override = map(item);
            boolean targeted = list(override.get("targetJobs")).stream().anyMatch(t -> replicatedJob.equals(map(t).get("name")));
            if (!targeted) continue;
            Map<String, Object> metadata = map(podTemplate.computeIfAbsent("metadata", k -> new LinkedHashMap<>()));
            for (String field : List.of("labels", "annotations")) {
                Map<String, Object> added = map(map(override.get("metadata")).get(field));
                if (!added.isEmpty()) map(metadata.computeIfAbsent(field, k -> new LinkedHashMap<>())).putAll(added);
            }
            Map<String, Object> podSpec = map(podTemplate.computeIfAbsent("spec", k -> new LinkedHashMap<>()));
            Map<String, Object> overrideSpec = map(override.get("spec"));
            Map<String, Object> nodeSelector = map(overrideSpec.get("nodeSelector"));
            if (!nodeSelector.isEmpty()) map(podSpec.computeIfAbsent("nodeSelector", k -> new LinkedHashMap<>())).putAll(nodeSelector);
            if (!list(overrideSpec.get("tolerations")).isEmpty()) {
                List<Object> tolerations = new ArrayList<>(list(podSpec.get("tolerations")));
                for (Object toleration : list(overrideSpec.get("tolerations"))) if (!tolerations.contains(toleration)) tolerations.add(toleration);
                podSpec.put("tolerations", tolerations);
            }
            if (overrideSpec.get("affinity") != null) podSpec.put("affinity", overrideSpec.get("affinity"));
        }
    }

    /** The TrainJob's status from its JobSet's (null: no JobSet yet). */
    static Map<String, Object> status(Map<String, Object> jobSetStatus, boolean suspended) {
        Map<String, Object> status = new LinkedHashMap<>();
        List<Object> conditions = new ArrayList<>();
        Object terminal = jobSetStatus == null ? null : jobSetStatus.get("terminalState");
        if (suspended) conditions.add(condition("Suspended", "Suspended", "TrainJob is suspended"));
        if ("Completed".equals(terminal)) conditions.add(condition("Complete", "JobSetCompleted", "jobset completed successfully"));
        if ("Failed".equals(terminal)) conditions.add(condition("Failed", "JobSetFailed", "jobset failed due to one or more job failures"));
        status.put("conditions", conditions);
        List<Object> jobs = new ArrayList<>();
        if (jobSetStatus != null) {
            for (Object replicated : list(jobSetStatus.get("replicatedJobsStatus"))) jobs.add(new LinkedHashMap<>(map(replicated)));
        }
        status.put("jobsStatus", jobs);
        return status;
    }

    private static Map<String, Object> condition(String type, String reason, String message) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", "True");
        condition.put("reason", reason);
        condition.put("message", message);
        return condition;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }
}
