package dev.berth.virtualcluster;

import dev.berth.protocol.KubeflowJobKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubeflow training operator for one kind (PyTorchJob, MPIJob): creates each replica's pods with the
 * operator's names and labels (training.kubeflow.org/job-name, replica-type, replica-index, job-role,
 * operator-name), owned by the job, and writes the job's status ({@link KubeflowJobRules}). The MPIJob
 * launcher is a pod here, not the Job the MPI operator makes for it. Finished jobs keep their pods,
 * except the running ones their cleanPodPolicy (default Running for MPIJob, None for PyTorchJob) removes.
 */
final class KubeflowJobController {
    private static final Logger LOG = LoggerFactory.getLogger(KubeflowJobController.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final KubeflowJobKind kind;

    KubeflowJobController(KubernetesClient client, Clock clock, KubeflowJobKind kind) {
        this.client = client;
        this.clock = clock;
        this.kind = kind;
    }

    void reconcile() {
        List<GenericKubernetesResource> jobs = client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inAnyNamespace().list().getItems();
        if (jobs.isEmpty()) return;
        Map<String, List<Pod>> podsByOwner = new HashMap<>();
        for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
            OwnerReferences.controllerUid(pod.getMetadata())
                .ifPresent(uid -> podsByOwner.computeIfAbsent(uid, u -> new java.util.ArrayList<>()).add(pod));
        }
        for (GenericKubernetesResource job : jobs) {
            try {
                reconcile(job, podsByOwner.getOrDefault(job.getMetadata().getUid(), List.of()));
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile {} {}/{}: {}", kind.kind(), job.getMetadata().getNamespace(), job.getMetadata().getName(),
                    e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource job, List<Pod> pods) {
        Map<String, Object> spec = KubeflowJobRules.map(job.getAdditionalProperties().get("spec"));
        Map<String, Object> oldStatus = KubeflowJobRules.map(job.getAdditionalProperties().get("status"));
        if (isFinished(oldStatus)) return;
        Map<String, String> phases = new HashMap<>();
        for (Pod pod : pods) phases.put(pod.getMetadata().getName(), PodPhases.phase(pod));
        KubeflowJobRules.Decision decision = KubeflowJobRules.decide(kind, job.getMetadata().getName(), spec, oldStatus, phases,
            clock.instant().toString());
        for (KubeflowJobRules.WantedPod wanted : decision.create()) createPod(job, spec, wanted);
        if (decision.deleteActive()) {
            pods.stream().filter(p -> !PodPhases.isTerminated(p)).forEach(p ->
                client.pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName()).delete());
        }
        if (!decision.status().equals(oldStatus)) {
            job.getAdditionalProperties().put("status", decision.status());
            client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(job.getMetadata().getNamespace())
                .resource(job).updateStatus();
            if (decision.finished()) LOG.info("{} {}/{} finished", kind.kind(), job.getMetadata().getNamespace(), job.getMetadata().getName());
        }
    }

    private static boolean isFinished(Map<String, Object> status) {
        for (Object item : KubeflowJobRules.list(status.get("conditions"))) {
            Map<String, Object> c = KubeflowJobRules.map(item);
            if (("Succeeded".equals(c.get("type")) || "Failed".equals(c.get("type"))) && "True".equals(c.get("status"))) return true;
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private void createPod(GenericKubernetesResource job, Map<String, Object> spec, KubeflowJobRules.WantedPod wanted) {
        Map<String, Object> replica = KubeflowJobRules.map(KubeflowJobRules.map(spec.get(kind.replicaSpecsField())).get(wanted.replicaType()));
        Map<String, Object> template = KubeflowJobRules.map(replica.get("template"));
        Map<String, Object> templateMetadata = KubeflowJobRules.map(template.get("metadata"));
        String type = KubeflowJobKind.podSetName(wanted.replicaType());
        Map<String, String> labels = new LinkedHashMap<>();
        JobController.inheritBerthLabels(job.getMetadata().getLabels(), labels);
        labels.putAll((Map<String, String>) templateMetadata.getOrDefault("labels", Map.of()));
        labels.put(KubeflowJobKind.JOB_NAME_LABEL, job.getMetadata().getName());
        labels.put(KubeflowJobKind.OPERATOR_NAME_LABEL, kind.operatorName());
        labels.put(KubeflowJobKind.REPLICA_TYPE_LABEL, type);
        labels.put(KubeflowJobKind.REPLICA_INDEX_LABEL, Integer.toString(wanted.index()));
        if (wanted.replicaType().equals(kind.completingReplicaType())) labels.put(KubeflowJobKind.JOB_ROLE_LABEL, type);
        PodSpec podSpec = client.getKubernetesSerialization().convertValue(template.getOrDefault("spec", Map.of()), PodSpec.class);
        Pod pod = new PodBuilder()
            .withNewMetadata()
                .withName(wanted.name()).withNamespace(job.getMetadata().getNamespace()).withLabels(labels)
                .withAnnotations((Map<String, String>) templateMetadata.getOrDefault("annotations", Map.of()))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind())
                    .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
                    .withController(true).withBlockOwnerDeletion(true).build())
            .endMetadata()
            .withSpec(podSpec)
            .withNewStatus().withPhase(PodPhases.PENDING).endStatus()
            .build();
        client.pods().inNamespace(job.getMetadata().getNamespace()).resource(pod).create();
        LOG.info("{} {}/{} created pod {}", kind.kind(), job.getMetadata().getNamespace(), job.getMetadata().getName(), wanted.name());
    }
}
