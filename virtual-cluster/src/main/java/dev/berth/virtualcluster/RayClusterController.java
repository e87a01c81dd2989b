package dev.berth.virtualcluster;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.RayApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KubeRay's RayCluster controller: creates the head and worker pods with KubeRay's labels (ray.io/cluster,
 * ray.io/node-type, ray.io/group, ray.io/is-ray-node), owned by the cluster, and writes the cluster's
 * status ({@link RayRules}). Ray nodes are servers: a pod whose template does not say how long it runs
 * ({@code berth.dev/sim-runtime}) runs until the cluster is deleted. A failed pod is replaced, as KubeRay does.
 */
final class RayClusterController {
    private static final Logger LOG = LoggerFactory.getLogger(RayClusterController.class);
    /** How long a Ray node runs when its template does not say: as good as forever. */
    static final String SERVER_RUNTIME = "P3650D";

    private final KubernetesClient client;
    private final Clock clock;

    RayClusterController(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    void reconcile() {
        List<GenericKubernetesResource> clusters = client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_CLUSTER).inAnyNamespace()
                .list().getItems();
        if (clusters.isEmpty()) return;
        Map<String, List<Pod>> podsByOwner = new HashMap<>();
        for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
            OwnerReferences.controllerUid(pod.getMetadata()).ifPresent(uid -> podsByOwner.computeIfAbsent(uid, u -> new ArrayList<>()).add(pod));
        }
        for (GenericKubernetesResource cluster : clusters) {
            if (cluster.getMetadata().getDeletionTimestamp() != null) continue;
            try {
                reconcile(cluster, podsByOwner.getOrDefault(cluster.getMetadata().getUid(), List.of()));
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile RayCluster {}/{}: {}", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource cluster, List<Pod> pods) {
        String namespace = cluster.getMetadata().getNamespace();
        String name = cluster.getMetadata().getName();
        Map<String, Object> spec = RayRules.map(cluster.getAdditionalProperties().get("spec"));
        Map<String, Object> oldStatus = RayRules.map(cluster.getAdditionalProperties().get("status"));
        Map<String, String> phases = new HashMap<>();
        for (Pod pod : pods) {
            if (PodPhases.FAILED.equals(PodPhases.phase(pod))) {
                client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete();
                continue;
            }
            phases.put(pod.getMetadata().getName(), PodPhases.phase(pod));
        }
        List<RayRules.WantedPod> wanted = RayRules.wantedPods(name, spec);
        for (RayRules.WantedPod pod : wanted) {
            if (!phases.containsKey(pod.name())) createPod(cluster, pod);
        }
        List<String> wantedNames = wanted.stream().map(RayRules.WantedPod::name).toList();
        for (Pod pod : pods) {
            if (!wantedNames.contains(pod.getMetadata().getName()) && pod.getMetadata().getDeletionTimestamp() == null) {
                client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete(); // scaled down or suspended
            }
        }
        Map<String, Object> status = RayRules.clusterStatus(namespace, name, spec, oldStatus, phases, clock.instant().toString());
        if (!status.equals(oldStatus)) {
            cluster.getAdditionalProperties().put("status", status);
            client.genericKubernetesResources(RayApi.API_VERSION, RayApi.RAY_CLUSTER).inNamespace(namespace).resource(cluster).updateStatus();
            if (RayRules.CLUSTER_READY.equals(status.get("state")) && !RayRules.CLUSTER_READY.equals(oldStatus.get("state"))) {
                LOG.info("RayCluster {}/{} ready", namespace, name);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void createPod(GenericKubernetesResource cluster, RayRules.WantedPod wanted) {
        Map<String, Object> metadata = RayRules.map(wanted.template().get("metadata"));
        Map<String, String> labels = new LinkedHashMap<>();
        JobController.inheritBerthLabels(cluster.getMetadata().getLabels(), labels);
        labels.putAll((Map<String, String>) metadata.getOrDefault("labels", Map.of()));
        labels.put(RayApi.CLUSTER_LABEL, cluster.getMetadata().getName());
        labels.put(RayApi.NODE_TYPE_LABEL, wanted.head() ? "head" : "worker");
        labels.put(RayApi.GROUP_LABEL, wanted.group());
        labels.put(RayApi.IS_RAY_NODE_LABEL, "yes");
        labels.put("app.kubernetes.io/name", "kuberay");
        labels.put("app.kubernetes.io/created-by", "kuberay-operator");
        Map<String, String> annotations = new LinkedHashMap<>((Map<String, String>) metadata.getOrDefault("annotations", Map.of()));
        annotations.putIfAbsent(Annotations.SIMULATED_RUNTIME, SERVER_RUNTIME);
        PodSpec podSpec = client.getKubernetesSerialization().convertValue(wanted.template().getOrDefault("spec", Map.of()), PodSpec.class);
        Pod pod = new PodBuilder()
            .withNewMetadata()
                .withName(wanted.name()).withNamespace(cluster.getMetadata().getNamespace()).withLabels(labels).withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(RayApi.API_VERSION).withKind(RayApi.RAY_CLUSTER)
                    .withName(cluster.getMetadata().getName()).withUid(cluster.getMetadata().getUid())
                    .withController(true).withBlockOwnerDeletion(true).build())
            .endMetadata()
            .withSpec(podSpec)
            .withNewStatus().withPhase(PodPhases.PENDING).endStatus()
            .build();
        client.pods().inNamespace(cluster.getMetadata().getNamespace()).resource(pod).create();
        LOG.info("RayCluster {}/{} created pod {}", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), wanted.name());
    }
}
