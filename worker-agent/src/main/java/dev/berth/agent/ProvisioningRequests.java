package dev.berth.agent;

import dev.berth.protocol.Provisioning;
import dev.berth.protocol.crd.ProvisioningAsk;
import dev.berth.protocol.crd.ProvisioningProgress;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.Map;

/**
 * The fabric8 edge of capacity on request: reads the attempt's ProvisioningRequest, and creates it with its
 * PodTemplates (Kueue's shapes, {@link ProvisioningRequestRenderer}) when the attempt does not fit and the
 * manager allowed one. A cluster without the ProvisioningRequest API answers 404: it cannot scale, and the
 * attempt simply waits as any other.
 */
final class ProvisioningRequests {
    private final KubernetesClient client;

    ProvisioningRequests(KubernetesClient client) {
        this.client = client;
    }

    /** The attempt's request as it stands, or null when none was made (or the manager allowed none). */
    ProvisioningProgress existing(RemoteWorkload rw) {
        ProvisioningAsk ask = rw.getSpec().getProvisioning();
        if (ask == null) return null;
        GenericKubernetesResource request = requests().inNamespace(rw.getMetadata().getNamespace()).withName(ask.getRequestName()).get();
        return request == null ? null : ProvisioningRequestRenderer.progress(ask, asMap(request));
    }

    /** The attempt's request, made now if it was not; null when the manager allowed none or the cluster cannot scale. */
    ProvisioningProgress ensure(RemoteWorkload rw, AttemptOwner owner) {
        ProvisioningAsk ask = rw.getSpec().getProvisioning();
        if (ask == null) return null;
        ProvisioningProgress existing = existing(rw);
        if (existing != null) return existing;
        ProvisioningRequestRenderer.Rendered rendered = ProvisioningRequestRenderer.render(owner, rw.getSpec());
        try {
            for (Map<String, Object> template : rendered.podTemplates()) createIfAbsent(PODTEMPLATES, template);
            GenericKubernetesResource created = createIfAbsent(REQUESTS, rendered.request());
            return ProvisioningRequestRenderer.progress(ask, asMap(created));
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) return null;
            throw e;
        }
    }

    private static final ResourceDefinitionContext REQUESTS = new ResourceDefinitionContext.Builder().withGroup(Provisioning.GROUP)
            .withVersion(Provisioning.VERSION).withKind(Provisioning.KIND).withPlural(Provisioning.PLURAL).withNamespaced(true).build();
    private static final ResourceDefinitionContext PODTEMPLATES = new ResourceDefinitionContext.Builder().withGroup("")
            .withVersion("v1").withKind(Provisioning.POD_TEMPLATE_KIND).withPlural(Provisioning.POD_TEMPLATES).withNamespaced(true).build();

    private GenericKubernetesResource createIfAbsent(ResourceDefinitionContext type, Map<String, Object> body) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(body, GenericKubernetesResource.class);
        try {
            return client.genericKubernetesResources(type).inNamespace(resource.getMetadata().getNamespace()).resource(resource).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) throw e;
            return client.genericKubernetesResources(type).inNamespace(resource.getMetadata().getNamespace())
                    .withName(resource.getMetadata().getName()).get();
        }
    }

    private io.fabric8.kubernetes.client.dsl.MixedOperation<GenericKubernetesResource, io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> requests() {
        return client.genericKubernetesResources(REQUESTS);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> asMap(GenericKubernetesResource resource) {
        return client.getKubernetesSerialization().convertValue(resource, Map.class);
    }
}
