package dev.berth.virtualcluster;

import dev.berth.protocol.Provisioning;
import dev.berth.protocol.ResourceNames;
import dev.berth.protocol.crd.BerthCrds;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster autoscaler for a virtual cluster: it accepts every new autoscaling.x-k8s.io ProvisioningRequest
 * (Accepted=True, Provisioned=False reason Provisioning), and {@code delay} later either fails it
 * (Failed=True: the first {@code fail} requests, or one that needs more nodes than {@code max} allows) or adds
 * the nodes its pod sets need to the pool and sets Provisioned=True. It also publishes the pool's growth
 * room in the ConfigMap berth-autoscaling, which the agent reports in its heartbeat.
 */
final class SimulatedProvisioner {
    static final String CONFIG_MAP = "berth-autoscaling";
    private static final ResourceDefinitionContext REQUESTS = new ResourceDefinitionContext.Builder().withGroup(Provisioning.GROUP)
            .withVersion(Provisioning.VERSION).withKind(Provisioning.KIND).withPlural(Provisioning.PLURAL).withNamespaced(true).build();
    private static final ResourceDefinitionContext POD_TEMPLATES = new ResourceDefinitionContext.Builder().withGroup("")
            .withVersion("v1").withKind("PodTemplate").withPlural("podtemplates").withNamespaced(true).build();

    private final KubernetesClient client;
    private final String clusterName;
    private final NodePool pool;
    private final ProvisionerProfile profile;
    private final Clock clock;
    private final Map<String, Instant> acceptedAt = new HashMap<>();
    private int failed;
    private int added;

    SimulatedProvisioner(KubernetesClient client, String clusterName, NodePool pool, ProvisionerProfile profile, Clock clock) {
        this.client = client;
        this.clusterName = clusterName;
        this.pool = pool;
        this.profile = profile;
        this.clock = clock;
    }

    /** Publishes how far the pool may grow, for the agent's heartbeat. */
    void publish() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("nodeLabels", Map.of(dev.berth.protocol.Labels.GPU_PRODUCT, pool.product()));
        entry.put("maxNodes", profile.maxNodes());
        entry.put("nodeAllocatable", Map.of(ResourceNames.GPU, Integer.toString(pool.gpusPerNode())));
        entry.put("provisioningClassName", ProvisionerProfile.PROVISIONING_CLASS);
        String json = client.getKubernetesSerialization().asJson(entry);
        client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata().withName(CONFIG_MAP)
                .withNamespace(BerthCrds.SYSTEM_NAMESPACE).endMetadata().addToData(pool.alias(), json).build()).createOr(c -> c.update());
    }

    void reconcile() {
        for (GenericKubernetesResource request : client.genericKubernetesResources(REQUESTS).inAnyNamespace().list().getItems()) {
            String key = request.getMetadata().getNamespace() + "/" + request.getMetadata().getName();
            List<Map<String, Object>> conditions = conditions(request);
            if (has(conditions, Provisioning.PROVISIONED, "True") || has(conditions, Provisioning.FAILED, "True")) continue;
            Instant now = clock.instant();
            if (!has(conditions, Provisioning.ACCEPTED, "True")) {
                acceptedAt.put(key, now);
                write(request, List.of(condition(Provisioning.ACCEPTED, "True", "Accepted", "accepted by the virtual cluster autoscaler", now),
                        condition(Provisioning.PROVISIONED, "False", "Provisioning", "scaling up " + pool.alias(), now)));
                continue;
            }
            Instant accepted = acceptedAt.computeIfAbsent(key, k -> now);
            if (now.isBefore(accepted.plus(profile.delay()))) continue;
            int needed = nodesNeeded(request);
            int current = (int) client.nodes().list().getItems().stream()
                    .filter(n -> pool.product().equals(n.getMetadata().getLabels().get(dev.berth.protocol.Labels.GPU_PRODUCT))).count();
            Map<String, Object> accept = condition(Provisioning.ACCEPTED, "True", "Accepted", "accepted by the virtual cluster autoscaler", accepted);
            if (failed < profile.failFirst()) {
                failed++;
                write(request, List.of(accept, condition(Provisioning.FAILED, "True", "ProvisioningFailed",
                        "simulated failure " + failed + " of " + profile.failFirst(), now)));
            } else if (current + needed > profile.maxNodes()) {
                write(request, List.of(accept, condition(Provisioning.FAILED, "True", "MaxNodesReached",
                        needed + " more " + pool.alias() + " node(s) would exceed the maximum of " + profile.maxNodes(), now)));
            } else {
                addNodes(needed);
                write(request, List.of(accept, condition(Provisioning.PROVISIONED, "True", "Provisioned",
                        needed + " " + pool.alias() + " node(s) added", now)));
            }
        }
    }

    /** Nodes of the pool that hold the request's pods, each pod's GPUs on one node. */
    @SuppressWarnings("unchecked")
    private int nodesNeeded(GenericKubernetesResource request) {
        int nodes = 0;
        Map<String, Object> spec = (Map<String, Object>) request.getAdditionalProperties().getOrDefault("spec", Map.of());
        for (Object item : (List<Object>) spec.getOrDefault("podSets", List.of())) {
            Map<String, Object> podSet = (Map<String, Object>) item;
            int count = ((Number) podSet.getOrDefault("count", 1)).intValue();
            String template = String.valueOf(((Map<String, Object>) podSet.getOrDefault("podTemplateRef", Map.of())).get("name"));
            GenericKubernetesResource podTemplate = client.genericKubernetesResources(POD_TEMPLATES)
                    .inNamespace(request.getMetadata().getNamespace()).withName(template).get();
            long gpus = 0;
            if (podTemplate != null) {
                var templateSpec = client.getKubernetesSerialization().convertValue(podTemplate.getAdditionalProperties().get("template"),
                        io.fabric8.kubernetes.api.model.PodTemplateSpec.class);
                var pod = new io.fabric8.kubernetes.api.model.PodBuilder().withSpec(templateSpec.getSpec()).build();
                gpus = PodRequests.of(pod).getOrDefault(ResourceNames.GPU, java.math.BigDecimal.ZERO).longValue();
            }
            int perNode = gpus <= 0 ? count : (int) Math.max(1, pool.gpusPerNode() / gpus);
            nodes += (count + perNode - 1) / perNode;
        }
        return nodes;
    }

    private void addNodes(int count) {
        NodePool grown = new NodePool(pool.alias(), pool.product(), pool.instanceType(), count, pool.gpusPerNode());
        for (Node node : grown.toNodes(clusterName + "-scaled-" + added, false)) client.nodes().resource(node).create();
        added++;
    }

    private void write(GenericKubernetesResource request, List<Map<String, Object>> conditions) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", conditions);
        request.getAdditionalProperties().put("status", status);
        client.genericKubernetesResources(REQUESTS).inNamespace(request.getMetadata().getNamespace()).resource(request).updateStatus();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource request) {
        Map<String, Object> status = (Map<String, Object>) request.getAdditionalProperties().getOrDefault("status", Map.of());
        return new ArrayList<>((List<Map<String, Object>>) status.getOrDefault("conditions", List.of()));
    }

    private static boolean has(List<Map<String, Object>> conditions, String type, String status) {
        return conditions.stream().anyMatch(c -> type.equals(c.get("type")) && status.equals(c.get("status")));
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message, Instant at) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", at.toString());
        return condition;
    }
}
