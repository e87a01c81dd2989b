package dev.berth.chaos;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the drills set up through the manager's API, as an operator would: one namespace and LocalQueue,
 * one ClusterQueue with an A100 flavor behind the MultiKueue admission check, and every worker site
 * registered as a MultiKueueCluster with its kubeconfig in a Secret.
 */
final class ChaosQueues {
    static final String NAMESPACE = "chaos";
    static final String LOCAL_QUEUE = "chaos-queue";
    static final String CLUSTER_QUEUE = "chaos-cq";
    static final String FLAVOR = "a100";
    static final String GPU_PRODUCT = "NVIDIA-A100-SXM4-40GB";
    /** Sixteen GPUs: one site of two 8-GPU nodes holds them all, so work can move when a site is lost. */
    static final int GPU_QUOTA = 16;

    private ChaosQueues() {}

    static void apply(ManagerApi api, List<WorkerSite> sites) {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"%s","labels":{"team":"chaos"}}}""".formatted(NAMESPACE));
        api.create(ManagerApi.KUEUE + "/resourceflavors", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"%s"},
                 "spec":{"nodeLabels":{"nvidia.com/gpu.product":"%s"},
                         "nodeTaints":[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}],
                         "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]}}"""
                .formatted(FLAVOR, GPU_PRODUCT));
        api.create(ManagerApi.KUEUE + "/admissionchecks", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"AdmissionCheck","metadata":{"name":"multikueue"},
                 "spec":{"controllerName":"kueue.x-k8s.io/multikueue",
                         "parameters":{"apiGroup":"kueue.x-k8s.io","kind":"MultiKueueConfig","name":"chaos-clusters"}}}""");
        String clusters = sites.stream().map(s -> "\"" + s.name() + "\"").collect(Collectors.joining(","));
        api.create(ManagerApi.KUEUE + "/multikueueconfigs", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"MultiKueueConfig","metadata":{"name":"chaos-clusters"},
                 "spec":{"clusters":[%s]}}""".formatted(clusters));
        api.create(ManagerApi.KUEUE + "/clusterqueues", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"%s"},
                 "spec":{"namespaceSelector":{"matchLabels":{"team":"chaos"}},"queueingStrategy":"BestEffortFIFO",
                         "resourceGroups":[{"coveredResources":["cpu","memory","nvidia.com/gpu"],
                           "flavors":[{"name":"%s","resources":[{"name":"cpu","nominalQuota":"64"},
                             {"name":"memory","nominalQuota":"512Gi"},{"name":"nvidia.com/gpu","nominalQuota":"%d"}]}]}],
                         "admissionChecksStrategy":{"admissionChecks":[{"name":"multikueue"}]}}}"""
                .formatted(CLUSTER_QUEUE, FLAVOR, GPU_QUOTA));
        api.create(ManagerApi.KUEUE + "/namespaces/" + NAMESPACE + "/localqueues", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"%s","namespace":"%s"},
                 "spec":{"clusterQueue":"%s"}}""".formatted(LOCAL_QUEUE, NAMESPACE, CLUSTER_QUEUE));
        for (WorkerSite site : sites) register(api, site);
    }

    /** A kubeconfig Secret in kueue-system and the MultiKueueCluster that names it. */
    static void register(ManagerApi api, WorkerSite site) {
        String kubeconfig = Base64.getEncoder().encodeToString(site.managerKubeconfig().getBytes(StandardCharsets.UTF_8));
        api.create("/api/v1/namespaces/kueue-system/secrets", """
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"%1$s-kubeconfig","namespace":"kueue-system"},
                 "data":{"kubeconfig":"%2$s"}}""".formatted(site.name(), kubeconfig));
        api.create(ManagerApi.KUEUE + "/multikueueclusters", """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"MultiKueueCluster","metadata":{"name":"%1$s"},
                 "spec":{"clusterSource":{"kubeConfig":{"locationType":"Secret","location":"%1$s-kubeconfig"}}}}"""
                .formatted(site.name()));
    }

    /** A Job of one pod asking for {@code gpus} A100 GPUs that runs for {@code runtime} (ISO-8601) in the simulator. */
    static String job(String name, int gpus, String runtime) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: %s
                  labels:
                    kueue.x-k8s.io/queue-name: %s
                spec:
                  parallelism: 1
                  completions: 1
                  suspend: true
                  template:
                    metadata:
                      annotations:
                        berth.dev/sim-runtime: %s
                    spec:
                      restartPolicy: Never
                      nodeSelector:
                        nvidia.com/gpu.product: %s
                      containers:
                      - name: main
                        image: registry.example/train:1
                        resources:
                          requests:
                            cpu: "1"
                            memory: 1Gi
                            nvidia.com/gpu: "%d"
                          limits:
                            nvidia.com/gpu: "%d"
                """.formatted(name, NAMESPACE, LOCAL_QUEUE, runtime, GPU_PRODUCT, gpus, gpus);
    }
}
