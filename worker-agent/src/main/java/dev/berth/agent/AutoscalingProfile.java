package dev.berth.agent;

import dev.berth.protocol.crd.AutoscalingCapacity;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/**
 * Whether the cluster can grow a flavor on request: the ConfigMap {@value #NAME} in berth-system, one key per
 * flavor whose value is an {@link AutoscalingCapacity} as JSON (maxNodes, nodeAllocatable, provisioningClassName).
 * The operator (or a virtual cluster's provisioner) writes it; the agent adds it to its heartbeat, so the manager
 * may place a workload that fits nowhere now on this cluster and let it ask for capacity. Absent: the cluster cannot scale.
 */
final class AutoscalingProfile {
    static final String NAME = "berth-autoscaling";
    private final KubernetesClient client;

    AutoscalingProfile(KubernetesClient client) {
        this.client = client;
    }

    /** Adds each flavor's autoscaling capacity to the report; a missing or unreadable ConfigMap adds nothing. */
    void addTo(CapacityReport report) {
        ConfigMap map = client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(NAME).get();
        if (map == null || map.getData() == null) return;
        Map<String, String> data = map.getData();
        for (CapacityReport.FlavorCapacity flavor : report.getFlavors()) {
            String json = data.get(flavor.getName());
            if (json == null) continue;
            try {
                flavor.setAutoscaling(client.getKubernetesSerialization().unmarshal(json, AutoscalingCapacity.class));
            } catch (RuntimeException unreadable) {
                // an unreadable entry counts as a flavor that cannot grow
            }
        }
    }
}
