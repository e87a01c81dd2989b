package dev.berth.manager.model;

/** A LocalQueue: a namespace's door to a ClusterQueue. */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
    public String key() {
        return namespace + "/" + name;
    }
}
