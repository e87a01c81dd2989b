package dev.berth.manager.model;

/**
 * A LocalQueue: a namespace's door to a ClusterQueue. fairSharingWeight is spec.fairSharing.weight
 * (1 when absent), which divides the LocalQueue's usage under admission fair sharing.
 */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy, double fairSharingWeight) {
    public LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
        this(namespace, name, clusterQueue, stopPolicy, 1.0);
    }

    public String key() {
        return namespace + "/" + name;
    }
}
