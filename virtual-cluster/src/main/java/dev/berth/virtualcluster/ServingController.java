package dev.berth.virtualcluster;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.ServingKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller of one serving kind (Deployment, StatefulSet, LeaderWorkerSet): keeps {@code spec.replicas}
 * pods (groups) running with the kind's names and labels ({@link ServingRules}), owned by the object,
 * replaces pods that end, removes pods scaled away, and writes the replica counts into the status. Its pods
 * run until deleted: unless the template says otherwise they carry a simulated runtime of 100 years.
 */
final class ServingController {
    private static final Logger LOG = LoggerFactory.getLogger(ServingController.class);
    static final String SERVING_RUNTIME = "PT876000H";

    private final KubernetesClient client;
    private final ServingKind kind;

    ServingController(KubernetesClient client, ServingKind kind) {
        this.client = client;
        this.kind = kind;
    }

    void reconcile() {
        List<GenericKubernetesResource> objects = client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inAnyNamespace().list().getItems();
        if (objects.isEmpty()) return;
        Map<String, List<Pod>> podsByOwner = new HashMap<>();
        for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
            OwnerReferences.controllerUid(pod.getMetadata())
                .ifPresent(uid -> podsByOwner.computeIfAbsent(uid, u -> new ArrayList<>()).add(pod));
        }
        for (GenericKubernetesResource object : objects) {
            try {
                reconcile(object, podsByOwner.getOrDefault(object.getMetadata().getUid(), List.of()));
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile {} {}/{}: {}", kind.kind(), object.getMetadata().getNamespace(),
                    object.getMetadata().getName(), e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource object, List<Pod> pods) {
        if (object.getMetadata().getDeletionTimestamp() != null) return;
        Map<String, Object> spec = KubeflowJobRules.map(object.getAdditionalProperties().get("spec"));
        Map<String, Object> oldStatus = KubeflowJobRules.map(object.getAdditionalProperties().get("status"));
        Map<String, String> phases = new HashMap<>();
        Set<String> ready = new HashSet<>();
        for (Pod pod : pods) {
            phases.put(pod.getMetadata().getName(), PodPhases.phase(pod));
            PodCondition condition = PodPhases.condition(pod, "Ready");
            if (condition != null && "True".equals(condition.getStatus())) ready.add(pod.getMetadata().getName());
        }
        long generation = object.getMetadata().getGeneration() == null ? 1 : object.getMetadata().getGeneration();
        ServingRules.Decision decision = ServingRules.decide(kind, object.getMetadata().getName(), generation, spec, phases, ready);
        for (String name : decision.delete()) {
            client.pods().inNamespace(object.getMetadata().getNamespace()).withName(name).delete();
            LOG.info("{} {}/{} removed pod {}", kind.kind(), object.getMetadata().getNamespace(), object.getMetadata().getName(), name);
        }
        for (ServingRules.WantedPod wanted : decision.create()) createPod(object, wanted);
        if (!decision.status().equals(oldStatus)) {
            object.getAdditionalProperties().put("status", decision.status());
            client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(object.getMetadata().getNamespace())
                .resource(object).updateStatus();
        }
    }

    @SuppressWarnings("unchecked")
    private void createPod(GenericKubernetesResource object, ServingRules.WantedPod wanted) {
        Map<String, Object> templateMetadata = KubeflowJobRules.map(wanted.template().get("metadata"));
        Map<String, String> labels = new LinkedHashMap<>();
        JobController.inheritBerthLabels(object.getMetadata().getLabels(), labels);
        labels.putAll((Map<String, String>) templateMetadata.getOrDefault("labels", Map.of()));
        labels.putAll(wanted.labels());
        Map<String, String> annotations = new LinkedHashMap<>((Map<String, String>) templateMetadata.getOrDefault("annotations", Map.of()));
        annotations.putIfAbsent(Annotations.SIMULATED_RUNTIME, SERVING_RUNTIME);
        PodSpec podSpec = client.getKubernetesSerialization().convertValue(wanted.template().getOrDefault("spec", Map.of()), PodSpec.class);
        Pod pod = new PodBuilder()
            .withNewMetadata()
                .withName(wanted.name()).withNamespace(object.getMetadata().getNamespace()).withLabels(labels).withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind())
                    .withName(object.getMetadata().getName()).withUid(object.getMetadata().getUid())
                    .withController(true).withBlockOwnerDeletion(true).build())
            .endMetadata()
            .withSpec(podSpec)
            .withNewStatus().withPhase(PodPhases.PENDING).endStatus()
            .build();
        client.pods().inNamespace(object.getMetadata().getNamespace()).resource(pod).create();
        LOG.info("{} {}/{} created pod {}", kind.kind(), object.getMetadata().getNamespace(), object.getMetadata().getName(), wanted.name());
    }
}
