package dev.berth.manager.api;

import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.KueueApi;

/**
 * What a request addresses: a kind at a served version, a namespace ("" for cluster-scoped kinds,
 * null for a list across all namespaces) and a name (null for the collection).
 */
public record ResourcePath(ResourceType type, String version, String namespace, String name) {
    public static ResourcePath collection(ResourceType type, String version, String namespace) {
        return new ResourcePath(type, version, namespace, null);
    }

    public ResourcePath named(String objectName) {
        return new ResourcePath(type, version, namespace, objectName);
    }

    ObjectKey key() {
        return new ObjectKey(type.resource(), type.namespaced() ? namespace : "", name);
    }

    /** Whether the path names a Kueue kind through v1beta1, whose shape differs from the stored v1beta2. */
    boolean kueueV1beta1() {
        return type.group().equals(KueueApi.GROUP) && KueueApi.V1BETA1.equals(version);
    }

    String apiVersion() {
        return type.apiVersion(version);
    }
}
