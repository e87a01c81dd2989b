package dev.berth.virtualcluster;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.RayApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KubeRay's RayJob controller: creates the job's RayCluster (the RayJob's labels copied onto it, as
 * KubeRay does, so it carries the attempt's labels too), then the submitter Job once the cluster is
 * ready (K8sJobMode), and writes the RayJob's status with the cluster's name, dashboard URL and job id
 * ({@link RayRules}). A finished job's cluster is deleted when shutdownAfterJobFinishes says so.
 */
final class RayJobController {
    private static final Logger LOG = LoggerFactory.getLogger(RayJobController.class);
    /** KubeRay's default submitter backoff limit. */
    private static final int SUBMITTER_BACKOFF_LIMIT = 2;

    private final KubernetesClient client;
    private final Clock clock;

    RayJobController(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    void reconcile() {
        for (GenericKubernetesResource job : client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_JOB).inAnyNamespace().list().getItems()) {
            if (job.getMetadata().getDeletionTimestamp() != null) continue;
            try {
                reconcile(job);
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile RayJob {}/{}: {}", job.getMetadata().getNamespace(), job.getMetadata().getName(), e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource job) {
        String namespace = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        Map<String, Object> spec = RayRules.map(job.getAdditionalProperties().get("spec"));
        Map<String, Object> oldStatus = RayRules.map(job.getAdditionalProperties().get("status"));
        String clusterName = RayRules.clusterNameOf(name, job.getMetadata().getUid());
        Optional<GenericKubernetesResource> cluster = Optional.ofNullable(
                client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_CLUSTER).inNamespace(namespace).withName(clusterName).get());
        Job submitter = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
        Map<String, String> annotations = job.getMetadata().getAnnotations() == null ? Map.of() : job.getMetadata().getAnnotations();
        Duration runtime = SimulatedRun.parseRuntime(annotations.get(Annotations.SIMULATED_RUNTIME));
        RayRules.JobDecision decision = RayRules.job(namespace, name, job.getMetadata().getUid(), spec, oldStatus,
                cluster.map(c -> RayRules.map(c.getAdditionalProperties().get("status"))).orElse(null), submitterState(submitter), runtime,
                clock.instant());
        if (decision.createCluster()) createCluster(job, clusterName, spec);
        if (decision.createSubmitter() && submitter == null) createSubmitter(job, spec);
        if (decision.deleteCluster() && cluster.isPresent()) {
            client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_CLUSTER).inNamespace(namespace).withName(clusterName).delete();
            LOG.info("RayJob {}/{} deleted its RayCluster {}", namespace, name, clusterName);
        }
        if (!decision.status().equals(oldStatus)) {
            job.getAdditionalProperties().put("status", decision.status());
            client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_JOB).inNamespace(namespace).resource(job).updateStatus();
            if (decision.finished() && !decision.status().get("jobDeploymentStatus").equals(oldStatus.get("jobDeploymentStatus"))) {
                LOG.info("RayJob {}/{} finished: {}", namespace, name, decision.status().get("jobStatus"));
            }
        }
    }

    private static String submitterState(Job submitter) {
        if (submitter == null) return null;
        if (submitter.getStatus() != null && submitter.getStatus().getConditions() != null) {
            for (var condition : submitter.getStatus().getConditions()) {
                if ("True".equals(condition.getStatus()) && ("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))) {
                    return condition.getType();
                }
            }
        }
        return "Running";
    }

    private OwnerReference ownedBy(GenericKubernetesResource job) {
        return new OwnerReferenceBuilder().withApiVersion(RayApi.API_VERSION).withKind(RayApi.RAY_JOB).withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build();
    }

    private void createCluster(GenericKubernetesResource job, String clusterName, Map<String, Object> spec) {
        Map<String, String> labels = new LinkedHashMap<>(job.getMetadata().getLabels() == null ? Map.of() : job.getMetadata().getLabels());
        labels.put(RayApi.ORIGINATED_FROM_CRD_LABEL, RayApi.RAY_JOB);
        labels.put("ray.io/originated-from-cr-name", job.getMetadata().getName());
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setApiVersion(RayApi.API_VERSION);
        cluster.setKind(RayApi.RAY_CLUSTER);
        cluster.setMetadata(new ObjectMetaBuilder().withName(clusterName).withNamespace(job.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(ownedBy(job)).build());
        cluster.getAdditionalProperties().put("spec", RayRules.map(spec.get("rayClusterSpec")));
        client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_CLUSTER).inNamespace(job.getMetadata().getNamespace()).resource(cluster).create();
        LOG.info("RayJob {}/{} created RayCluster {}", job.getMetadata().getNamespace(), job.getMetadata().getName(), clusterName);
    }

    private void createSubmitter(GenericKubernetesResource job, Map<String, Object> spec) {
        PodTemplateSpec template = client.getKubernetesSerialization().convertValue(
                RayRules.map(spec.get("submitterPodTemplate")), PodTemplateSpec.class);
        if (template.getSpec() == null || template.getSpec().getContainers() == null || template.getSpec().getContainers().isEmpty()) {
            LOG.info("RayJob {}/{} has no submitter template; its entrypoint cannot be submitted", job.getMetadata().getNamespace(),
                    job.getMetadata().getName());
            return;
        }
        if (template.getSpec().getRestartPolicy() == null) template.getSpec().setRestartPolicy("Never");
        Job submitter = new JobBuilder()
            .withNewMetadata().withName(job.getMetadata().getName()).withNamespace(job.getMetadata().getNamespace())
                .addToLabels(RayApi.ORIGINATED_FROM_CRD_LABEL, RayApi.RAY_JOB)
                .addToLabels("ray.io/originated-from-cr-name", job.getMetadata().getName())
                .withOwnerReferences(ownedBy(job)).endMetadata()
            .withNewSpec().withBackoffLimit(SUBMITTER_BACKOFF_LIMIT).withTemplate(template).endSpec()
            .build();
        client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).resource(submitter).create();
        LOG.info("RayJob {}/{} created its submitter Job", job.getMetadata().getNamespace(), job.getMetadata().getName());
    }
}
