package dev.berth.manager.testing;

/**
 * The queues a dispatching end-to-end test submits to: namespace team-a, ResourceFlavor a100 (an A100 node
 * label), MultiKueueConfig "workers" listing the worker clusters, AdmissionCheck "dispatch" naming it, ClusterQueue
 * "cq" (64 CPUs and, unless told, 64 GPUs of a100) that requires the check, and LocalQueue team-a/lq pointing at it:
 * <pre>
 * DispatchQueues.to("small", "roomy").createIn(harness.client());
 * </pre>
 */
public final class DispatchQueues {
    public static final String NAMESPACE = MockWorkerCluster.NAMESPACE;
    public static final String LOCAL_QUEUE = "lq";
    public static final String CLUSTER_QUEUE = "cq";
    public static final String FLAVOR = "a100";
    public static final String CHECK = "dispatch";

    private final String[] clusters;
    private int gpus = 64;
    private String withinClusterQueue;

    private DispatchQueues(String[] clusters) {
        this.clusters = clusters;
    }

    /** Queues whose workloads are dispatched to the named MultiKueueClusters. */
    public static DispatchQueues to(String... clusters) {
        return new DispatchQueues(clusters);
    }

    /** The ClusterQueue's nominal quota of nvidia.com/gpu in a100. */
    public DispatchQueues gpuQuota(int value) {
        this.gpus = value;
        return this;
    }

    /** spec.preemption.withinClusterQueue (reclaimWithinCohort stays Never). */
    public DispatchQueues preemptWithinClusterQueue(String policy) {
        this.withinClusterQueue = policy;
        return this;
    }

    public void createIn(ManagerClient client) {
        client.create(KueueObjects.namespace(NAMESPACE));
        client.create(KueueObjects.resourceFlavor(FLAVOR).nodeLabel("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"));
        client.create(MultiKueueObjects.multiKueueConfig("workers", clusters));
        client.create(MultiKueueObjects.multiKueueCheck(CHECK, "workers"));
        KueueObjects.ClusterQueueBuilder queue = KueueObjects.clusterQueue(CLUSTER_QUEUE)
                .quota(FLAVOR, "cpu", 64).quota(FLAVOR, "nvidia.com/gpu", gpus).admissionCheck(CHECK);
        if (withinClusterQueue != null) queue.preemption(withinClusterQueue, "Never");
        client.create(queue);
        client.create(KueueObjects.localQueue(NAMESPACE, LOCAL_QUEUE).clusterQueue(CLUSTER_QUEUE));
    }

    /** A suspended Job in team-a/lq of pods pods, each asking 1 CPU and gpusPerPod GPUs. */
    public static KueueObjects.JobBuilder job(String name, int pods, int gpusPerPod) {
        return KueueObjects.job(NAMESPACE, name).queue(LOCAL_QUEUE).parallelism(pods)
                .request("cpu", "1").request("nvidia.com/gpu", gpusPerPod);
    }
}
