package dev.berth.virtualcluster;

import dev.berth.protocol.AppWrapperApi;
import dev.berth.protocol.JsonValues;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CodeFlare AppWrapper controller: creates each component's wrapped object (a batch Job, a Pod, a
 * PyTorchJob, ...) owned by the AppWrapper and labelled {@code workload.codeflare.dev/appwrapper}, with that
 * label and the attempt's labels in every declared pod template too; the other simulated controllers then
 * make the pods. The AppWrapper's phase and conditions follow its pods ({@link AppWrapperRules}).
 */
final class AppWrapperController {
    private static final Logger LOG = LoggerFactory.getLogger(AppWrapperController.class);

    private final KubernetesClient client;
    private final Clock clock;

    AppWrapperController(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    void reconcile() {
        List<GenericKubernetesResource> appWrappers = client.genericKubernetesResources(AppWrapperApi.API_VERSION, AppWrapperApi.KIND)
                .inAnyNamespace().list().getItems();
        for (GenericKubernetesResource appWrapper : appWrappers) {
            try {
                reconcile(appWrapper);
            } catch (KubernetesClientException e) {
                LOG.debug("Could not reconcile AppWrapper {}/{}: {}", appWrapper.getMetadata().getNamespace(), appWrapper.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }

    private void reconcile(GenericKubernetesResource appWrapper) {
        String namespace = appWrapper.getMetadata().getNamespace();
        String name = appWrapper.getMetadata().getName();
        Map<String, Object> object = new LinkedHashMap<>(appWrapper.getAdditionalProperties());
        List<Map<String, Object>> components = AppWrapperApi.components(object);
        List<Boolean> existing = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) existing.add(find(namespace, components.get(i), name, i) != null);
        List<String> phases = client.pods().inNamespace(namespace).withLabel(AppWrapperApi.APPWRAPPER_LABEL, name).list().getItems()
                .stream().map(PodPhases::phase).toList();
        int expected = AppWrapperApi.podSets(object).stream().mapToInt(AppWrapperApi.PodSet::replicas).sum();
        AppWrapperRules.Decision decision = AppWrapperRules.decide(object, expected, existing, phases, clock.instant().toString());
        for (int index : decision.create()) create(appWrapper, components.get(index), index);
        if (decision.deleteComponents()) {
            for (int i = 0; i < components.size(); i++) {
                HasMetadata found = find(namespace, components.get(i), name, i);
                if (found != null) client.resource(found).delete();
            }
        }
        if (!decision.status().equals(oldStatus(object))) {
            appWrapper.getAdditionalProperties().put("status", decision.status());
            client.genericKubernetesResources(AppWrapperApi.API_VERSION, AppWrapperApi.KIND).inNamespace(namespace).resource(appWrapper).updateStatus();
            LOG.info("AppWrapper {}/{} is {}", namespace, name, decision.status().get("phase"));
        }
    }

    private static Object oldStatus(Map<String, Object> object) {
        return KubeflowJobRules.map(object.get("status"));
    }

    private HasMetadata find(String namespace, Map<String, Object> component, String appWrapperName, int index) {
        Map<String, Object> template = KubeflowJobRules.map(component.get("template"));
        String componentName = AppWrapperRules.componentName(appWrapperName, component, index);
        String apiVersion = String.valueOf(template.get("apiVersion"));
        String kind = String.valueOf(template.get("kind"));
        if ("batch/v1".equals(apiVersion) && "Job".equals(kind)) return client.batch().v1().jobs().inNamespace(namespace).withName(componentName).get();
        if ("v1".equals(apiVersion) && "Pod".equals(kind)) return client.pods().inNamespace(namespace).withName(componentName).get();
        return client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace).withName(componentName).get();
    }

    @SuppressWarnings("unchecked")
    private void create(GenericKubernetesResource appWrapper, Map<String, Object> component, int index) {
        String name = appWrapper.getMetadata().getName();
        String namespace = appWrapper.getMetadata().getNamespace();
        Map<String, Object> copy = (Map<String, Object>) JsonValues.deepCopy(component);
        Map<String, Object> wrapped = (Map<String, Object>) copy.get("template");
        Map<String, String> labels = new LinkedHashMap<>();
        JobController.inheritBerthLabels(appWrapper.getMetadata().getLabels(), labels);
        labels.put(AppWrapperApi.APPWRAPPER_LABEL, name);
        for (Object declared : KubeflowJobRules.list(copy.get("podSets"))) {
            AppWrapperApi.at(copy, String.valueOf(KubeflowJobRules.map(declared).get("path")))
                    .ifPresent(podTemplate -> labelsOf(podTemplate).putAll(labels));
        }
        Map<String, Object> metadata = (Map<String, Object>) wrapped.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        metadata.put("name", AppWrapperRules.componentName(name, component, index));
        metadata.put("namespace", namespace);
        labelsOf(wrapped).putAll(labels);
        metadata.put("ownerReferences", List.of(Map.of("apiVersion", AppWrapperApi.API_VERSION, "kind", AppWrapperApi.KIND,
                "name", name, "uid", appWrapper.getMetadata().getUid(), "controller", true, "blockOwnerDeletion", true)));
        String apiVersion = String.valueOf(wrapped.get("apiVersion"));
        String kind = String.valueOf(wrapped.get("kind"));
        if ("v1".equals(apiVersion) && "Pod".equals(kind)) {
            Pod pod = client.getKubernetesSerialization().convertValue(wrapped, Pod.class);
            pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase(PodPhases.PENDING).build());
            client.pods().inNamespace(namespace).resource(pod).create();
        } else if ("batch/v1".equals(apiVersion) && "Job".equals(kind)) {
            client.batch().v1().jobs().inNamespace(namespace)
                    .resource(client.getKubernetesSerialization().convertValue(wrapped, io.fabric8.kubernetes.api.model.batch.v1.Job.class)).create();
        } else {
            client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace)
                    .resource(client.getKubernetesSerialization().convertValue(wrapped, GenericKubernetesResource.class)).create();
        }
        LOG.info("AppWrapper {}/{} created {} {}", namespace, name, kind, metadata.get("name"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> labelsOf(Map<String, Object> object) {
        Map<String, Object> metadata = (Map<String, Object>) object.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        return (Map<String, Object>) metadata.computeIfAbsent("labels", k -> new LinkedHashMap<>());
    }
}
