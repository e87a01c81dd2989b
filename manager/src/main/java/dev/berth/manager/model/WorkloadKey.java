package dev.berth.manager.model;

/** Identifies a workload: its namespace and name. */
public record WorkloadKey(String namespace, String name) implements Comparable<WorkloadKey> {
    public static WorkloadKey of(String namespace, String name) {
        return new WorkloadKey(namespace, name);
    }

    @Override
    public int compareTo(WorkloadKey other) {
        int byNamespace = namespace.compareTo(other.namespace);
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
