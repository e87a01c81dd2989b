package dev.berth.agent;

import dev.berth.protocol.crd.AutoscalingCapacity;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.FlavorDefinition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * Whether the cluster can grow a flavor on request: the ConfigMap {@value #NAME} in berth-system has one entry per
 * node group the autoscaler can grow, as JSON: {@code nodeLabels} (the labels its new nodes carry), {@code maxNodes},
 * {@code nodeAllocatable} and {@code provisioningClassName}. A flavor whose nodeLabels all appear in a group's
 * nodeLabels can grow with that group. The operator (or a virtual cluster's provisioner) writes it; the agent adds
 * it to its heartbeat. Absent: the cluster cannot scale.
 */
final class AutoscalingProfile {
    static final String NAME = "berth-autoscaling";
    private final KubernetesClient client;

    record NodeGroup(Map<String, String> nodeLabels, int maxNodes, Map<String, String> nodeAllocatable, String provisioningClassName) {
        @SuppressWarnings("unchecked")
        static NodeGroup of(Map<String, Object> json) {
            Map<String, String> labels = new java.util.LinkedHashMap<>();
            if (json.get("nodeLabels") instanceof Map<?, ?> m) m.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
            Map<String, String> allocatable = new java.util.LinkedHashMap<>();
            if (json.get("nodeAllocatable") instanceof Map<?, ?> m) m.forEach((k, v) -> allocatable.put(String.valueOf(k), String.valueOf(v)));
            int max = json.get("maxNodes") instanceof Number n ? n.intValue() : 0;
            Object className = json.get("provisioningClassName");
            return new NodeGroup(labels, max, allocatable, className == null ? null : className.toString());
        }
    }

    AutoscalingProfile(KubernetesClient client) {
        this.client = client;
    }

    /** Adds each flavor's autoscaling capacity to the report; a missing ConfigMap or unreadable entry adds nothing. */
    void addTo(CapacityReport report, List<FlavorDefinition> flavors) {
        ConfigMap map = client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(NAME).get();
        if (map == null || map.getData() == null) return;
        for (String json : map.getData().values()) {
            NodeGroup group;
            try {
                group = NodeGroup.of(client.getKubernetesSerialization().unmarshal(json, Map.class));
            } catch (RuntimeException unreadable) {
                continue;
            }
            if (group == null || group.nodeLabels() == null) continue;
            for (CapacityReport.FlavorCapacity flavor : report.getFlavors()) {
                FlavorDefinition definition = flavors.stream().filter(f -> f.getName().equals(flavor.getName())).findFirst().orElse(null);
                if (definition == null || definition.getNodeLabels().isEmpty()) continue;
                if (!group.nodeLabels().entrySet().containsAll(definition.getNodeLabels().entrySet())) continue;
                AutoscalingCapacity capacity = new AutoscalingCapacity();
                capacity.setMaxNodes(group.maxNodes());
                if (group.nodeAllocatable() != null) capacity.setNodeAllocatable(group.nodeAllocatable());
                capacity.setProvisioningClassName(group.provisioningClassName());
                flavor.setAutoscaling(capacity);
            }
        }
    }
}
