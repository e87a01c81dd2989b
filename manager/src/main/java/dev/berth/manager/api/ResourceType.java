package dev.berth.manager.api;

import java.util.List;

/**
 * A kind the API serves. group is "" for the core group; version is the storage version (the one
 * objects are converted to on admit). Other served versions are registered as aliases in
 * {@link ResourceRegistry}.
 */
public record ResourceType(String group, String version, String plural, String singular, String kind,
                           boolean namespaced, List<String> shortNames, boolean hasStatus) {
    public ResourceType {
        shortNames = List.copyOf(shortNames);
    }

    /** The store's resource name, {@code group/plural}. */
    public String resource() {
        return group + "/" + plural;
    }

    /** As Kubernetes names a resource in messages: {@code clusterqueues.kueue.x-k8s.io}, or {@code pods} for core. */
    public String qualifiedName() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** The apiVersion field value for a version of this kind: {@code group/version}, or {@code version} for core. */
    public String apiVersion(String servedVersion) {
        return group.isEmpty() ? servedVersion : group + "/" + servedVersion;
    }
}
