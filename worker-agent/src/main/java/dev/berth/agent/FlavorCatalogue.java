package dev.berth.agent;

import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.FlavorDefinition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.List;

/** Reads the manager's flavor catalogue: ConfigMap berth-system/berth-flavors, key flavors.json. */
public final class FlavorCatalogue {
    private final KubernetesClient client;

    public FlavorCatalogue(KubernetesClient client) {
        this.client = client;
    }

    /** The flavors, or none when the manager has not written the catalogue yet. */
    public List<FlavorDefinition> read() {
        ConfigMap map = client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.FLAVOR_CATALOGUE).get();
        if (map == null || map.getData() == null) return List.of();
        String json = map.getData().get(BerthCrds.FLAVOR_CATALOGUE_KEY);
        if (json == null || json.isBlank()) return List.of();
        return Arrays.asList(client.getKubernetesSerialization().unmarshal(json, FlavorDefinition[].class));
    }
}
