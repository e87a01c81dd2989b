package dev.berth.virtualcluster;

import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.UncountedTerminatedPods;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch/v1 Job controller: keeps up to parallelism pods active until completions pods succeeded
 * (SuccessCriteriaMet then Complete, reason CompletionsReached) or more than backoffLimit failed
 * (FailureTarget then Failed, reason BackoffLimitExceeded); a suspended Job has no active pods, no
 * start time and a Suspended condition. The status carries kube 1.32's counters: active, ready,
 * succeeded, failed, terminating and uncountedTerminatedPods.
 */
final class JobController {
    private static final Logger LOG = LoggerFactory.getLogger(JobController.class);
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    static final String LEGACY_JOB_NAME_LABEL = "job-name";
    static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
    private static final int DEFAULT_BACKOFF_LIMIT = 6;
    static final String COMPLETIONS_REACHED = "CompletionsReached";
    static final String COMPLETIONS_MESSAGE = "Reached expected number of succeeded pods";
    static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
    static final String BACKOFF_LIMIT_MESSAGE = "Job has reached the specified backoff limit";
    private static final String ALPHANUMERIC = "bcdfghjklmnpqrstvwxz2456789";

    private final KubernetesClient client;
    private final Clock clock;

    JobController(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    void reconcile() {
        List<Job> jobs = client.batch().v1().jobs().inAnyNamespace().list().getItems();
        Map<String, List<Pod>> podsByOwner = new HashMap<>();
        for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
            OwnerReferences.controllerUid(pod.getMetadata())
                .ifPresent(uid -> podsByOwner.computeIfAbsent(uid, u -> new ArrayList<>()).add(pod));
        }
        for (Job job : jobs) {
            try {
                reconcile(job, podsByOwner.getOrDefault(job.getMetadata().getUid(), List.of()));
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile job {}/{}: {}", job.getMetadata().getNamespace(),
                    job.getMetadata().getName(), e.getMessage());
            }
        }
    }

    private void reconcile(Job job, List<Pod> pods) {
        JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
        if (finished(old)) {
            return;
        }
        boolean suspended = Boolean.TRUE.equals(job.getSpec().getSuspend());
        List<Pod> active = pods.stream().filter(p -> !PodPhases.isTerminated(p)).toList();
        int activeCount = active.size();
        int succeeded = Math.max(count(pods, PodPhases.SUCCEEDED), zeroIfNull(old.getSucceeded()));
        int failed = Math.max(count(pods, PodPhases.FAILED), zeroIfNull(old.getFailed()));
        int ready = (int) active.stream().filter(p -> PodPhases.RUNNING.equals(PodPhases.phase(p))).count();
        Integer completions = job.getSpec().getCompletions();
        int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
        int backoffLimit = job.getSpec().getBackoffLimit() == null ? DEFAULT_BACKOFF_LIMIT : job.getSpec().getBackoffLimit();

        JobStatus status = copyOf(old);
        String now = clock.instant().toString();
        boolean complete = completions == null ? succeeded > 0 && active.isEmpty() : succeeded >= completions;
        if (failed > backoffLimit) {
            deleteAll(active);
            activeCount = 0;
            ready = 0;
            // kube 1.31+: FailureTarget first, then Failed once the pods are gone (here at once)
            status.setConditions(withConditions(old, now, BACKOFF_LIMIT_EXCEEDED, BACKOFF_LIMIT_MESSAGE, "FailureTarget", "Failed"));
        } else if (complete) {
            status.setCompletionTime(now);
            status.setConditions(withConditions(old, now, COMPLETIONS_REACHED, COMPLETIONS_MESSAGE, "SuccessCriteriaMet", "Complete"));
        } else if (suspended) {
            deleteAll(active);
            activeCount = 0;
            ready = 0;
            status.setStartTime(null);
            status.setConditions(withSuspended(old, "True", "JobSuspended", "Job suspended", now));
        } else {
            if (status.getStartTime() == null) {
                status.setStartTime(now);
            }
            if (hasCondition(old, "Suspended")) status.setConditions(withSuspended(old, "False", "JobResumed", "Job resumed", now));
            int wanted = completions == null
                ? (succeeded > 0 ? 0 : parallelism)
                : Math.min(parallelism, completions - succeeded);
            for (; activeCount < wanted; activeCount++) {
                createPod(job);
            }
        }
        status.setActive(activeCount);
        status.setSucceeded(succeeded);
        status.setFailed(failed);
        status.setReady(ready);
        status.setTerminating(0);
        if (status.getUncountedTerminatedPods() == null) status.setUncountedTerminatedPods(new UncountedTerminatedPods());
        if (!Objects.equals(status, old)) {
            client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
                .editStatus(j -> {
                    j.setStatus(status);
                    return j;
                });
        }
    }

    private void createPod(Job job) {
        PodTemplateSpec template = job.getSpec().getTemplate();
        String jobName = job.getMetadata().getName();
        Map<String, String> labels = new LinkedHashMap<>();
        inheritBerthLabels(job.getMetadata().getLabels(), labels);
        if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
            labels.putAll(template.getMetadata().getLabels());
        }
        labels.put(JOB_NAME_LABEL, jobName);
        labels.put(LEGACY_JOB_NAME_LABEL, jobName);
        labels.put(CONTROLLER_UID_LABEL, job.getMetadata().getUid());
        Map<String, String> annotations = new LinkedHashMap<>();
        if (template.getMetadata() != null && template.getMetadata().getAnnotations() != null) {
            annotations.putAll(template.getMetadata().getAnnotations());
        }
        Pod pod = new PodBuilder()
            .withNewMetadata()
                .withName(jobName + "-" + randomSuffix())
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(labels).withAnnotations(annotations)
                .withOwnerReferences(controllerReference(job))
            .endMetadata()
            .withSpec(template.getSpec())
            .withNewStatus().withPhase(PodPhases.PENDING).endStatus()
            .build();
        client.pods().inNamespace(job.getMetadata().getNamespace()).resource(pod).create();
        LOG.info("Job {}/{} created pod {}", job.getMetadata().getNamespace(), jobName, pod.getMetadata().getName());
    }

    /** Berth's attempt labels reach the pods even when the template does not carry them. */
    static void inheritBerthLabels(Map<String, String> from, Map<String, String> to) {
        if (from == null) {
            return;
        }
        for (String key : List.of(Labels.REMOTE_WORKLOAD, Labels.ATTEMPT_ID, Labels.WORKLOAD_NAME, Labels.ORIGIN)) {
            if (from.containsKey(key)) {
                to.put(key, from.get(key));
            }
        }
    }

    private static OwnerReference controllerReference(Job job) {
        return new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
            .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
            .withController(true).withBlockOwnerDeletion(true).build();
    }

    private void deleteAll(List<Pod> pods) {
        for (Pod pod : pods) {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
        }
    }

    private static boolean finished(JobStatus status) {
        return status.getConditions() != null && status.getConditions().stream()
            .anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType())) && "True".equals(c.getStatus()));
    }

    private static List<JobCondition> withConditions(JobStatus old, String now, String reason, String message, String... types) {
        List<JobCondition> conditions = new ArrayList<>(old.getConditions() == null ? List.of() : old.getConditions());
        for (String type : types) {
            conditions.add(new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
                .withLastProbeTime(now).withLastTransitionTime(now).build());
        }
        return conditions;
    }

    /** The Suspended condition set to status (a transition time only when it changes), as kube's Job controller keeps it. */
    private static List<JobCondition> withSuspended(JobStatus old, String status, String reason, String message, String now) {
        List<JobCondition> conditions = new ArrayList<>(old.getConditions() == null ? List.of() : old.getConditions());
        for (int i = 0; i < conditions.size(); i++) {
            JobCondition existing = conditions.get(i);
            if (!"Suspended".equals(existing.getType())) continue;
            if (status.equals(existing.getStatus())) return conditions;
            conditions.set(i, new JobConditionBuilder().withType("Suspended").withStatus(status).withReason(reason).withMessage(message)
                .withLastProbeTime(now).withLastTransitionTime(now).build());
            return conditions;
        }
        conditions.add(new JobConditionBuilder().withType("Suspended").withStatus(status).withReason(reason).withMessage(message)
            .withLastProbeTime(now).withLastTransitionTime(now).build());
        return conditions;
    }

    private static boolean hasCondition(JobStatus status, String type) {
        return status.getConditions() != null && status.getConditions().stream().anyMatch(c -> type.equals(c.getType()));
    }

    private static JobStatus copyOf(JobStatus status) {
        JobStatus copy = new JobStatus();
        copy.setStartTime(status.getStartTime());
        copy.setCompletionTime(status.getCompletionTime());
        copy.setConditions(status.getConditions() == null ? null : new ArrayList<>(status.getConditions()));
        copy.setActive(status.getActive());
        copy.setSucceeded(status.getSucceeded());
        copy.setFailed(status.getFailed());
        copy.setReady(status.getReady());
        copy.setTerminating(status.getTerminating());
        copy.setUncountedTerminatedPods(status.getUncountedTerminatedPods());
        return copy;
    }

    private static int count(List<Pod> pods, String phase) {
        return (int) pods.stream().filter(p -> phase.equals(PodPhases.phase(p))).count();
    }

    private static int zeroIfNull(Integer value) {
        return value == null ? 0 : value;
    }

    private static String randomSuffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(ALPHANUMERIC.charAt(ThreadLocalRandom.current().nextInt(ALPHANUMERIC.length())));
        }
        return suffix.toString();
    }
}
