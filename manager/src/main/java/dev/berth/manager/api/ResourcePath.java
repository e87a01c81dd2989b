package dev.berth.manager.api;

import dev.berth.manager.store.ObjectKey;

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

    String apiVersion() {
        return type.apiVersion(version);
    }
}
