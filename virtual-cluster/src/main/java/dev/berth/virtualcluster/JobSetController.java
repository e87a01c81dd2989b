package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A jobset.x-k8s.io/v1alpha2 JobSet controller: one Job {@code <jobset>-<replicatedJob>-<index>} per
 * replica, suspended while the JobSet is; terminalState Completed when every Job completed, Failed
 * as soon as one Job failed.
 */
final class JobSetController {
    private static final Logger LOG = LoggerFactory.getLogger(JobSetController.class);
    static final String GROUP = "jobset.x-k8s.io";
    static final String API_VERSION = GROUP + "/v1alpha2";
    static final String KIND = "JobSet";
    static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    static final String REPLICATED_JOB_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
    static final String JOB_INDEX_LABEL = "jobset.sigs.k8s.io/job-index";

    private final KubernetesClient client;
    private final Clock clock;
    private final KubernetesSerialization serialization;

    JobSetController(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.serialization = client.getKubernetesSerialization();
    }

    void reconcile() {
        List<GenericKubernetesResource> jobSets =
            client.genericKubernetesResources(API_VERSION, KIND).inAnyNamespace().list().getItems();
        if (jobSets.isEmpty()) {
            return;
        }
        Map<String, Job> jobsByName = new HashMap<>();
        for (Job job : client.batch().v1().jobs().inAnyNamespace().list().getItems()) {
            jobsByName.put(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(), job);
        }
        for (GenericKubernetesResource jobSet : jobSets) {
            try {
                reconcile(jobSet, jobsByName);
            } catch (KubernetesClientException | IllegalArgumentException e) {
                LOG.debug("Could not reconcile jobset {}/{}: {}", jobSet.getMetadata().getNamespace(),
                    jobSet.getMetadata().getName(), e.getMessage());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void reconcile(GenericKubernetesResource jobSet, Map<String, Job> jobsByName) {
        Map<String, Object> spec = (Map<String, Object>) jobSet.getAdditionalProperties().getOrDefault("spec", Map.of());
        Map<String, Object> oldStatus = (Map<String, Object>) jobSet.getAdditionalProperties().get("status");
        if (oldStatus != null && oldStatus.get("terminalState") != null) {
            return;
        }
        boolean suspended = Boolean.TRUE.equals(spec.get("suspend"));
        String namespace = jobSet.getMetadata().getNamespace();
        List<Map<String, Object>> replicatedJobs =
            (List<Map<String, Object>>) spec.getOrDefault("replicatedJobs", List.of());
        List<Map<String, Object>> replicatedStatuses = new ArrayList<>();
        int total = 0;
        int completed = 0;
        int failed = 0;
        for (Map<String, Object> replicatedJob : replicatedJobs) {
            String rjName = (String) replicatedJob.get("name");
            int replicas = replicatedJob.get("replicas") == null ? 1 : ((Number) replicatedJob.get("replicas")).intValue();
            int rjActive = 0;
            int rjSucceeded = 0;
            int rjFailed = 0;
            for (int index = 0; index < replicas; index++) {
                total++;
                String jobName = jobSet.getMetadata().getName() + "-" + rjName + "-" + index;
                Job job = jobsByName.get(namespace + "/" + jobName);
                if (job == null) {
                    createJob(jobSet, replicatedJob, rjName, index, jobName, suspended);
                    rjActive++;
                    continue;
                }
                if (!Objects.equals(Boolean.TRUE.equals(job.getSpec().getSuspend()), suspended)) {
                    client.batch().v1().jobs().inNamespace(namespace).withName(jobName)
                        .edit(j -> { j.getSpec().setSuspend(suspended); return j; });
                }
                if (hasCondition(job, "Complete")) {
                    completed++;
                    rjSucceeded++;
                } else if (hasCondition(job, "Failed")) {
                    failed++;
                    rjFailed++;
                } else {
                    rjActive++;
                }
            }
            Map<String, Object> rjStatus = new LinkedHashMap<>();
            rjStatus.put("name", rjName);
            rjStatus.put("active", rjActive);
            rjStatus.put("succeeded", rjSucceeded);
            rjStatus.put("failed", rjFailed);
            rjStatus.put("suspended", suspended ? replicas : 0);
            replicatedStatuses.add(rjStatus);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("replicatedJobsStatus", replicatedStatuses);
        String now = clock.instant().toString();
        if (failed > 0) {
            status.put("terminalState", "Failed");
            status.put("conditions", List.of(condition("Failed", "FailedJobs", "jobset failed due to one or more job failures", now)));
        } else if (total > 0 && completed == total) {
            status.put("terminalState", "Completed");
            status.put("conditions", List.of(condition("Completed", "AllJobsCompleted", "jobset completed successfully", now)));
        } else if (oldStatus != null && oldStatus.get("conditions") != null) {
            status.put("conditions", oldStatus.get("conditions"));
        }
        if (!status.equals(oldStatus)) {
            jobSet.getAdditionalProperties().put("status", status);
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(jobSet).updateStatus();
        }
    }

    @SuppressWarnings("unchecked")
    private void createJob(GenericKubernetesResource jobSet, Map<String, Object> replicatedJob, String rjName,
                           int index, String jobName, boolean suspended) {
        Map<String, Object> template = (Map<String, Object>) replicatedJob.getOrDefault("template", Map.of());
        Map<String, Object> templateMetadata = (Map<String, Object>) template.getOrDefault("metadata", Map.of());
        JobSpec jobSpec = serialization.convertValue(template.getOrDefault("spec", Map.of()), JobSpec.class);
        jobSpec.setSuspend(suspended);
        Map<String, String> labels = new LinkedHashMap<>();
        JobController.inheritBerthLabels(jobSet.getMetadata().getLabels(), labels);
        labels.putAll((Map<String, String>) templateMetadata.getOrDefault("labels", Map.of()));
        labels.put(JOBSET_NAME_LABEL, jobSet.getMetadata().getName());
        labels.put(REPLICATED_JOB_LABEL, rjName);
        labels.put(JOB_INDEX_LABEL, Integer.toString(index));
        if (jobSpec.getTemplate().getMetadata() == null) {
            jobSpec.getTemplate().setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
        }
        Map<String, String> podLabels = new LinkedHashMap<>(labels);
        if (jobSpec.getTemplate().getMetadata().getLabels() != null) {
            podLabels.putAll(jobSpec.getTemplate().getMetadata().getLabels());
        }
        jobSpec.getTemplate().getMetadata().setLabels(podLabels);
        Job job = new Job();
        job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(jobName).withNamespace(jobSet.getMetadata().getNamespace()).withLabels(labels)
            .withAnnotations((Map<String, String>) templateMetadata.getOrDefault("annotations", Map.of()))
            .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(API_VERSION).withKind(KIND)
                .withName(jobSet.getMetadata().getName()).withUid(jobSet.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build())
            .build());
        job.setSpec(jobSpec);
        client.batch().v1().jobs().inNamespace(jobSet.getMetadata().getNamespace()).resource(job).create();
        LOG.info("JobSet {}/{} created job {}", jobSet.getMetadata().getNamespace(), jobSet.getMetadata().getName(), jobName);
    }

    private static boolean hasCondition(Job job, String type) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions()
            .stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Map<String, Object> condition(String type, String reason, String message, String now) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", "True");
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", now);
        return condition;
    }
}
