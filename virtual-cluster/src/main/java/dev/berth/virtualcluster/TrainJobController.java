package dev.berth.virtualcluster;

import dev.berth.protocol.TrainerApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubeflow Trainer v2 on a virtual cluster: a TrainJob whose runtime (TrainingRuntime in its namespace, or
 * ClusterTrainingRuntime) is on this cluster gets its child JobSet ({@link TrainJobRules}), which the
 * cluster's JobSet controller runs; the TrainJob's status follows the JobSet's. A TrainJob whose runtime is
 * missing waits, as the Trainer's reconcile does.
 */
final class TrainJobController {
    private static final Logger LOG = LoggerFactory.getLogger(TrainJobController.class);

    private final KubernetesClient client;

    TrainJobController(KubernetesClient client) {
        this.client = client;
    }

    void reconcile() {
        for (GenericKubernetesResource job : client.genericKubernetesResources(TrainerApi.API_VERSION, TrainerApi.TRAIN_JOB)
                .inAnyNamespace().list().getItems()) {
            if (job.getMetadata().getDeletionTimestamp() != null) continue;
            try {
                reconcile(job);
            } catch (KubernetesClientException | IllegalArgumentException e) {
                LOG.debug("Could not reconcile TrainJob {}/{}: {}", job.getMetadata().getNamespace(), job.getMetadata().getName(), e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource job) {
        String namespace = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        Map<String, Object> spec = TrainJobRules.map(job.getAdditionalProperties().get("spec"));
        boolean suspended = Boolean.TRUE.equals(spec.get("suspend"));
        GenericKubernetesResource jobSet = client.genericKubernetesResources(JobSetController.API_VERSION, JobSetController.KIND)
                .inNamespace(namespace).withName(name).get();
        if (jobSet == null && !suspended) {
            Optional<GenericKubernetesResource> runtime = runtime(namespace, TrainJobRules.map(spec.get("runtimeRef")));
            if (runtime.isEmpty()) return;
            Map<String, String> labels = job.getMetadata().getLabels() == null ? Map.of() : job.getMetadata().getLabels();
            Map<String, Object> child = TrainJobRules.childJobSet(namespace, name, job.getMetadata().getUid(), labels, spec,
                    Map.of("spec", runtime.get().getAdditionalProperties().getOrDefault("spec", Map.of())));
            GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(child, GenericKubernetesResource.class);
            client.genericKubernetesResources(JobSetController.API_VERSION, JobSetController.KIND).inNamespace(namespace).resource(resource).create();
            LOG.info("TrainJob {}/{} created its JobSet from {}", namespace, name, runtime.get().getMetadata().getName());
            return;
        }
        Map<String, Object> jobSetStatus = jobSet == null ? null : TrainJobRules.map(jobSet.getAdditionalProperties().get("status"));
        Map<String, Object> status = TrainJobRules.status(jobSetStatus, suspended);
        if (!status.equals(job.getAdditionalProperties().get("status"))) {
            job.getAdditionalProperties().put("status", status);
            client.genericKubernetesResources(TrainerApi.API_VERSION, TrainerApi.TRAIN_JOB).inNamespace(namespace).resource(job).updateStatus();
        }
    }

    private Optional<GenericKubernetesResource> runtime(String namespace, Map<String, Object> ref) {
        Optional<TrainerApi.Kind> kind = TrainerApi.runtimeKind((String) ref.get("kind"));
        if (kind.isEmpty() || ref.get("name") == null) return Optional.empty();
        var resources = client.genericKubernetesResources(TrainerApi.API_VERSION, kind.get().kind());
        return Optional.ofNullable(kind.get().namespaced()
                ? resources.inNamespace(namespace).withName(ref.get("name").toString()).get()
                : resources.withName(ref.get("name").toString()).get());
    }
}
