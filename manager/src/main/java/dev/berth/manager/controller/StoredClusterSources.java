package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.KubeconfigSource;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where each stored MultiKueueCluster's kubeconfig comes from: a file path, or a Secret in kueue-system (its
 * data or stringData key {@code kubeconfig}). The leader's {@link MultiKueueHooks} connect with it; a
 * follower's warm standby builds its read-only clients from the same sources, so the leader can adopt them.
 */
public final class StoredClusterSources {
    private StoredClusterSources() {}

    /** Every stored MultiKueueCluster whose kubeconfig resolves, by name (for a follower's warm standby). */
    public static Map<String, KubeconfigSource> resolvable(ObjectStore store) {
        Map<String, KubeconfigSource> sources = new LinkedHashMap<>();
        for (StoredObject stored : store.list(Resources.MULTIKUEUE_CLUSTERS.resource(), null)) {
            try {
                MultiKueueDecoder.ClusterInfo cluster = MultiKueueDecoder.decodeCluster(stored.object());
                KubeconfigSource source = of(cluster, name -> store.get(new ObjectKey(Resources.SECRETS.resource(),
                        KueueApi.CONFIG_NAMESPACE, name)).map(StoredObject::object));
                if (source.error() == null) sources.put(cluster.name(), source);
            } catch (RuntimeException unreadable) {
                // the leader reports it on the MultiKueueCluster; nothing to keep warm
            }
        }
        return sources;
    }

    /** The cluster's kubeconfig source; secrets looks a Secret of kueue-system up by name. */
    static KubeconfigSource of(MultiKueueDecoder.ClusterInfo cluster, Function<String, Optional<ObjectNode>> secrets) {
        if (!cluster.fromSecret()) return KubeconfigSource.ofPath(cluster.location());
        Optional<ObjectNode> secret = secrets.apply(cluster.location());
        if (secret.isEmpty()) {
            return KubeconfigSource.unresolved("Secret " + KueueApi.CONFIG_NAMESPACE + "/" + cluster.location() + " not found");
        }
        String encoded = secret.get().path("data").path(KueueApi.KUBECONFIG_KEY).asText("");
        if (!encoded.isEmpty()) {
            try {
                return KubeconfigSource.ofContent(new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException notBase64) {
                return KubeconfigSource.unresolved("Secret " + cluster.location() + ": data.kubeconfig is not base64");
            }
        }
        String plain = secret.get().path("stringData").path(KueueApi.KUBECONFIG_KEY).asText("");
        if (!plain.isEmpty()) return KubeconfigSource.ofContent(plain);
        return KubeconfigSource.unresolved("Secret " + cluster.location() + " has no key " + KueueApi.KUBECONFIG_KEY);
    }
}
