package dev.berth.manager.clusters;

import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import java.util.List;

/**
 * The deletions behind {@link ClusterCalls#fenceAttempt}, run on the cluster's bulkhead thread: one
 * old attempt's RemoteWorkload, objects of every dispatched kind ({@link JobKinds}) and pods in one namespace, by the agent's
 * {@link Labels#ATTEMPT_ID} label. Each object is listed and deleted by name (no deletecollection).
 */
final class AttemptFencing {
    private static final List<ResourceDefinitionContext> OWNERS = JobKinds.DISPATCHED.stream().map(AttemptFencing::context).toList();

    private final KubernetesClient client;
    private final String namespace;
    private final String attemptId;

    AttemptFencing(KubernetesClient client, String namespace, String attemptId) {
        this.client = client;
        this.namespace = namespace;
        this.attemptId = attemptId;
    }

    int deleteAndCountLive(String remoteWorkloadName) {
        remoteWorkload(remoteWorkloadName);
        owners();
        return pods();
    }

    /** The RemoteWorkload, only while it still stands for this attempt. */
    private void remoteWorkload(String name) {
        var resource = client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name);
        RemoteWorkload existing = resource.get();
        if (existing == null || existing.getSpec() == null || !attemptId.equals(existing.getSpec().getAttemptId())) return;
        resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    }

    private void owners() {
        for (ResourceDefinitionContext context : OWNERS) {
            List<GenericKubernetesResource> items;
            try {
                items = client.genericKubernetesResources(context).inNamespace(namespace).withLabel(Labels.ATTEMPT_ID, attemptId)
                        .list().getItems();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) continue; // the cluster does not serve this kind
                throw e;
            }
            for (GenericKubernetesResource owner : items) {
                client.genericKubernetesResources(context).inNamespace(namespace).withName(owner.getMetadata().getName())
                        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
            }
        }
    }

    /** Deletes the attempt's pods and counts the ones still live afterwards. */
    private int pods() {
        for (Pod pod : attemptPods()) {
            if (pod.getMetadata().getDeletionTimestamp() == null) {
                client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete();
            }
        }
        return (int) attemptPods().stream().filter(AttemptFencing::live).count();
    }

    private List<Pod> attemptPods() {
        return client.pods().inNamespace(namespace).withLabel(Labels.ATTEMPT_ID, attemptId).list().getItems();
    }

    private static boolean live(Pod pod) {
        if (pod.getStatus() == null) return true;
        String phase = pod.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    private static ResourceDefinitionContext context(JobKind kind) {
        return new ResourceDefinitionContext.Builder().withGroup(kind.group()).withVersion(kind.version()).withKind(kind.kind())
                .withPlural(kind.plural()).withNamespaced(true).build();
    }
}
