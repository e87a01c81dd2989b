package dev.berth.manager.store;

import java.util.Comparator;
import java.util.Objects;

/**
 * Where an object lives: resource is {@code group/plural} ("/namespaces" for core, "batch/jobs"),
 * namespace is "" for cluster-scoped kinds.
 */
public record ObjectKey(String resource, String namespace, String name) implements Comparable<ObjectKey> {
    private static final Comparator<ObjectKey> ORDER = Comparator.comparing(ObjectKey::resource)
            .thenComparing(ObjectKey::namespace)
            .thenComparing(ObjectKey::name);

    public ObjectKey {
        Objects.requireNonNull(resource, "resource");
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
    }

    public static ObjectKey of(String resource, String namespace, String name) {
        return new ObjectKey(resource, namespace, name);
    }

    @Override
    public int compareTo(ObjectKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return resource + ":" + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
