package dev.berth.agent;

import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
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
 * The objects the agent creates for attempts (every dispatched kind of {@link JobKinds}, and Pods), found by the agent's labels. The
 * API contexts are given explicitly so no discovery request is needed; a kind whose API the cluster
 * does not serve (no JobSet CRD) simply has no objects.
 */
public final class AttemptObjects {
    static final List<ResourceDefinitionContext> OWNERS = JobKinds.DISPATCHED.stream().map(AttemptObjects::context).toList();

    private final KubernetesClient client;
    private final Optional<String> namespaceScope;

    public AttemptObjects(KubernetesClient client, Optional<String> namespaceScope) {
        this.client = client;
        this.namespaceScope = namespaceScope;
    }

    /**
     * Creates the objects; one that already exists counts as created when it is this attempt's own (a retry
     * after a partial failure) or belongs to no attempt (a shared runtime). One held by another attempt fails
     * the create, to be retried once that object is gone: adopting it would leave this attempt with nothing.
     */
    public void create(List<RenderedObject> objects) {
        for (RenderedObject object : objects) {
            GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(object.body(), GenericKubernetesResource.class);
            String namespace = resource.getMetadata().getNamespace();
            try {
                ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(object.group())
                        .withVersion(object.version()).withKind(object.kind()).withPlural(object.plural()).withNamespaced(namespace != null).build();
                if (namespace == null) { // a cluster-scoped object (a TrainJob's ClusterTrainingRuntime)
                    client.genericKubernetesResources(context).resource(resource).create();
                } else {
                    client.genericKubernetesResources(context).inNamespace(namespace).resource(resource).create();
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) throw e;
                requireOwnOrShared(object, resource);
            }
        }
    }

    private void requireOwnOrShared(RenderedObject object, GenericKubernetesResource resource) {
        String ours = labelOf(resource);
        if (ours == null) return;
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(object.group())
                .withVersion(object.version()).withKind(object.kind()).withPlural(object.plural()).withNamespaced(true).build();
        GenericKubernetesResource existing = client.genericKubernetesResources(context)
                .inNamespace(resource.getMetadata().getNamespace()).withName(resource.getMetadata().getName()).get();
        String theirs = existing == null ? null : labelOf(existing);
        if (!ours.equals(theirs)) {
            throw new IllegalStateException(object.kind() + " " + resource.getMetadata().getNamespace() + "/" + resource.getMetadata().getName()
                    + " already exists for attempt " + theirs + ", not " + ours + "; created once it is gone");
        }
    }

    private static String labelOf(GenericKubernetesResource resource) {
        Map<String, String> labels = resource.getMetadata().getLabels();
        return labels == null ? null : labels.get(Labels.ATTEMPT_ID);
    }

    /** Every object of a dispatched kind the agent created, as maps, in the agent's scope. */
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

    /**
     * Deletes objects of one attempt that a pass listed, each by name (no list per kind); pods explicitly, as no
     * garbage collector may run. Pods its Job creates after the listing are found by the next pass. Each delete carries
     * the listed resourceVersion as precondition: the listing may be older than an object another attempt has created
     * under the same name since (a rescaled Deployment's next copy, a StatefulSet's pod), which must not go in its place.
     * An object changed or gone since the listing is left to the next pass.
     */
    public void deleteListed(List<Map<String, Object>> owners, List<Pod> pods) {
        for (Map<String, Object> owner : owners) {
            Map<String, Object> metadata = TemplatePods.map(owner, "metadata").orElse(Map.of());
            ResourceDefinitionContext context = contextOf(String.valueOf(owner.get("apiVersion")), String.valueOf(owner.get("kind")));
            if (context == null || metadata.get("deletionTimestamp") != null) continue;
            var named = client.genericKubernetesResources(context).inNamespace(String.valueOf(metadata.get("namespace")))
                    .withName(String.valueOf(metadata.get("name")));
            Object resourceVersion = metadata.get("resourceVersion");
            deleteUnlessChanged(() -> (resourceVersion == null ? named : named.lockResourceVersion(resourceVersion.toString())).delete());
        }
        for (Pod pod : pods) {
            if (pod.getMetadata().getDeletionTimestamp() == null) {
                var named = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
                String resourceVersion = pod.getMetadata().getResourceVersion();
                deleteUnlessChanged(() -> (resourceVersion == null ? named : named.lockResourceVersion(resourceVersion)).delete());
            }
        }
    }

    /** Runs a delete; a 409 (changed, or another object under the name) or 404 (gone) since the listing is no failure. */
    private static void deleteUnlessChanged(Runnable delete) {
        try {
            delete.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT && e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) throw e;
        }
    }

    private static ResourceDefinitionContext contextOf(String apiVersion, String kind) {
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        for (ResourceDefinitionContext context : OWNERS) {
            if (context.getKind().equals(kind) && context.getGroup().equals(group)) return context;
        }
        return null;
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

    private static ResourceDefinitionContext context(JobKind kind) {
        return new ResourceDefinitionContext.Builder().withGroup(kind.group()).withVersion(kind.version()).withKind(kind.kind())
                .withPlural(kind.plural()).withNamespaced(true).build();
    }
}
