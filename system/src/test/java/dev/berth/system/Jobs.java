package dev.berth.system;

/** Job manifests as users write them, for the system tests. */
final class Jobs {
    private Jobs() {}

    /** A Job in namespace ns queued to queue; each pod asks for cpu and gpus (0 for none) and runs for runtime. */
    static String job(String namespace, String name, String queue, int pods, int cpu, int gpus, String runtime, String gpuProduct) {
        StringBuilder yaml = new StringBuilder();
        yaml.append("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: %s
                  labels:
                    kueue.x-k8s.io/queue-name: %s
                spec:
                  parallelism: %d
                  completions: %d
                  suspend: true
                  template:
                    metadata:
                      annotations:
                        berth.dev/sim-runtime: %s
                    spec:
                      restartPolicy: Never
                """.formatted(name, namespace, queue, pods, pods, runtime));
        if (gpuProduct != null) {
            yaml.append("""
                          nodeSelector:
                            nvidia.com/gpu.product: %s
                    """.formatted(gpuProduct));
        }
        yaml.append("""
                      containers:
                      - name: main
                        image: registry.example/train:1
                        resources:
                          requests:
                            cpu: "%d"
                            memory: 1Gi
                """.formatted(cpu));
        if (gpus > 0) {
            yaml.append("""
                                nvidia.com/gpu: "%d"
                              limits:
                                nvidia.com/gpu: "%d"
                    """.formatted(gpus, gpus));
        }
        return yaml.toString();
    }
}
