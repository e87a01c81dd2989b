package dev.berth.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The queue setup of {@link DispatchLatencyBenchmark}: one CPU flavor, one ClusterQueue with quota
 * far above what the jobs need (so admission never waits for quota), its LocalQueue in namespace
 * {@value #NAMESPACE}, and the multikueue AdmissionCheck over every benchmark cluster.
 */
final class DispatchQueues {
    static final String NAMESPACE = "bench";
    static final String LOCAL_QUEUE = "bench-queue";

    private DispatchQueues() {}

    /** Writes the manifests into {@code dir} and returns it. */
    static Path write(Path dir, List<String> clusters) throws IOException {
        Files.createDirectories(dir);
        String clusterList = clusters.stream().map(c -> "  - " + c).collect(Collectors.joining("\n"));
        Files.writeString(dir.resolve("queues.yaml"), """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: %1$s
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata:
                  name: default-cpu
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata:
                  name: multikueue
                spec:
                  controllerName: kueue.x-k8s.io/multikueue
                  parameters:
                    apiGroup: kueue.x-k8s.io
                    kind: MultiKueueConfig
                    name: bench-clusters
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: MultiKueueConfig
                metadata:
                  name: bench-clusters
                spec:
                  clusters:
                %3$s
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata:
                  name: bench-cq
                spec:
                  namespaceSelector: {}
                  queueingStrategy: BestEffortFIFO
                  resourceGroups:
                  - coveredResources: ["cpu", "memory"]
                    flavors:
                    - name: default-cpu
                      resources:
                      - name: "cpu"
                        nominalQuota: 100000
                      - name: "memory"
                        nominalQuota: 100000Gi
                  admissionChecksStrategy:
                    admissionChecks:
                    - name: multikueue
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata:
                  namespace: %1$s
                  name: %2$s
                spec:
                  clusterQueue: bench-cq
                """.formatted(NAMESPACE, LOCAL_QUEUE, clusterList));
        return dir;
    }
}
