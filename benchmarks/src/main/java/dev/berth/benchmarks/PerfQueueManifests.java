package dev.berth.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * {@link QueueTopology} as manifests for a manager started from a folder: the namespaces, ResourceFlavor
 * {@value QueueTopology#FLAVOR}, one ClusterQueue per namespace in its cohort (nominal and borrowing limit
 * in cpu, reclaimWithinCohort Any, withinClusterQueue LowerPriority, every namespace) and a LocalQueue
 * {@value QueueTopology#LOCAL_QUEUE} per namespace; what {@link QueueTopology#install} does in-process.
 */
final class PerfQueueManifests {
    private PerfQueueManifests() {}

    /** Writes queues.yaml into {@code dir} and returns the folder. */
    static Path write(Path dir, QueueTopology topology) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("queues.yaml"), yaml(topology));
        return dir;
    }

    static String yaml(QueueTopology topology) {
        StringJoiner out = new StringJoiner("---\n");
        out.add("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata:
                  name: %s
                """.formatted(QueueTopology.FLAVOR));
        for (int index = 0; index < topology.queueCount(); index++) {
            String namespace = topology.namespace(index);
            out.add("""
                    apiVersion: v1
                    kind: Namespace
                    metadata:
                      name: %s
                    """.formatted(namespace));
            out.add("""
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ClusterQueue
                    metadata:
                      name: %s
                    spec:
                      cohortName: %s
                      namespaceSelector: {}
                      queueingStrategy: BestEffortFIFO
                      preemption:
                        reclaimWithinCohort: Any
                        withinClusterQueue: LowerPriority
                      resourceGroups:
                      - coveredResources: ["cpu"]
                        flavors:
                        - name: %s
                          resources:
                          - name: cpu
                            nominalQuota: %s
                            borrowingLimit: %s
                    """.formatted(topology.clusterQueue(index), "cohort-" + (index / topology.queuesPerCohort()),
                    QueueTopology.FLAVOR, cpu(topology.nominalCpuMillis()), cpu(topology.borrowingLimitCpuMillis())));
            out.add("""
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: LocalQueue
                    metadata:
                      namespace: %s
                      name: %s
                    spec:
                      clusterQueue: %s
                    """.formatted(namespace, QueueTopology.LOCAL_QUEUE, topology.clusterQueue(index)));
        }
        return out.toString();
    }

    /** A Kubernetes cpu quantity: whole cores when exact, else millicores. */
    static String cpu(long millis) {
        return millis % 1000 == 0 ? Long.toString(millis / 1000) : millis + "m";
    }
}
