package dev.berth.agent;

import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.ServingKind;
import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects the agent creates for attempts (Jobs, JobSets, Kubeflow jobs, Pods), found by the agent's labels. The
 * API contexts are given explicitly so no discovery request is needed; a kind whose API the cluster
 * does not serve (no JobSet CRD) simply has no objects.
 */
public final class AttemptObjects {
    static final ResourceDefinitionContext JOBS = context("batch", "v1", "Job", "jobs");
    static final ResourceDefinitionContext JOBSETS = context("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets");
    static final List<ResourceDefinitionContext> OWNERS = List.of(JOBS, JOBSETS,
            kubeflow(KubeflowJobKind.PYTORCH_JOB), kubeflow(KubeflowJobKind.MPI_JOB),
            ray(dev.berth.protocol.RayApi.RAY_JOB_KIND), ray(dev.berth.protocol.RayApi.RAY_CLUSTER_KIND),
            context(dev.berth.protocol.TrainerApi.GROUP, dev.berth.protocol.TrainerApi.VERSION, dev.berth.protocol.TrainerApi.TRAIN_JOB, "trainjobs"),
            serving(ServingKind.DEPLOYMENT), serving(ServingKind.STATEFUL_SET), serving(ServingKind.LEADER_WORKER_SET),
            context(dev.berth.protocol.AppWrapperApi.GROUP, dev.berth.protocol.AppWrapperApi.VERSION, dev.berth.protocol.AppWrapperApi.KIND,
                    dev.berth.protocol.AppWrapperApi.PLURAL));

    private final KubernetesClient client;
    private final Optional<String> namespaceScope;

    public AttemptObjects(KubernetesClient client, Optional<String> namespaceScope) {
        this.client = client;
        this.namespaceScope = namespaceScope;
    }

    /** Creates the objects; one that already exists (a retry after a partial failure) counts as created. */
    public void create(List<RenderedObject> objects) {
        for (RenderedObject object : objects) {
            GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(object.body(), GenericKubernetesResource.class);
            String namespace = resource.getMetadata().getNamespace();
            try {
                if (namespace == null) { // a cluster-scoped object (a TrainJob's ClusterTrainingRuntime)
                    client.genericKubernetesResources(new ResourceDefinitionContext.Builder().withGroup(object.group())
                            .withVersion(object.version()).withKind(object.kind()).withPlural(object.plural()).withNamespaced(false).build())
                            .resource(resource).create();
                    continue;
                }
                client.genericKubernetesResources(context(object.group(), object.version(), object.kind(), object.plural()))
                        .inNamespace(namespace).resource(resource).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) throw e;
            }
        }
    }

    /** Every Job and JobSet the agent created, as maps, in the agent's scope. */
    public List<Map<String, Object>> listOwners() {
        List<Map<String, Object>> result = new ArrayList<>();
        for (ResourceDefinitionContext context : OWNERS) {
            for (GenericKubernetesResource resource : listGeneric(context)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = client.getKubernetesSerialization().convertValue(resource, Map.class);
                result.add(map);
            }
        }
        return result;
    }

    /** Every pod in the agent's scope (all of them count for node usage). */
    public List<Pod> listPods() {
        return namespaceScope.isPresent()
                ? client.pods().inNamespace(namespaceScope.get()).list().getItems()
                : client.pods().inAnyNamespace().list().getItems();
    }

    /** Deletes the Jobs, JobSets and Pods of one attempt; pods explicitly, as no garbage collector may run. */
    public void deleteAttempt(String namespace, String attemptId) {
        deleteLabelled(namespace, Labels.ATTEMPT_ID, attemptId);
    }

    /** Deletes everything created for a RemoteWorkload, whatever the attempt. */
    public void deleteRemoteWorkload(String namespace, String remoteWorkloadName) {
        deleteLabelled(namespace, Labels.REMOTE_WORKLOAD, remoteWorkloadName);
    }

    /**
     * Lists by label and deletes each object by name: a label-selected delete would be a deletecollection,
     * a verb the agent's ClusterRole does not grant (one such request empties a namespace of every match).
     */
    private void deleteLabelled(String namespace, String label, String value) {
        for (ResourceDefinitionContext context : OWNERS) {
            try {
                var kind = client.genericKubernetesResources(context).inNamespace(namespace);
                for (GenericKubernetesResource owner : kind.withLabel(label, value).list().getItems()) {
                    if (owner.getMetadata().getDeletionTimestamp() == null) kind.withName(owner.getMetadata().getName()).delete();
                }
            } catch (KubernetesClientException e) {
                if (!isMissingApi(e)) throw e;
            }
        }
        var pods = client.pods().inNamespace(namespace);
        for (Pod pod : pods.withLabel(label, value).list().getItems()) {
            if (pod.getMetadata().getDeletionTimestamp() == null) pods.withName(pod.getMetadata().getName()).delete();
        }
    }

    private List<GenericKubernetesResource> listGeneric(ResourceDefinitionContext context) {
        try {
            var operation = client.genericKubernetesResources(context);
            return (namespaceScope.isPresent()
                    ? operation.inNamespace(namespaceScope.get()).withLabel(Labels.REMOTE_WORKLOAD).list()
                    : operation.inAnyNamespace().withLabel(Labels.REMOTE_WORKLOAD).list()).getItems();
        } catch (KubernetesClientException e) {
            if (isMissingApi(e)) return List.of();
            throw e;
        }
    }

    private static boolean isMissingApi(KubernetesClientException e) {
        return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND;
    }

    private static ResourceDefinitionContext ray(dev.berth.protocol.RayApi.Kind kind) {
        return context(kind.group(), kind.version(), kind.kind(), kind.plural());
    }

    private static ResourceDefinitionContext serving(ServingKind kind) {
        return context(kind.group(), kind.version(), kind.kind(), kind.plural());
    }

    private static ResourceDefinitionContext kubeflow(KubeflowJobKind kind) {
        return context(kind.group(), kind.version(), kind.kind(), kind.plural());
    }

    static ResourceDefinitionContext context(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }
}
