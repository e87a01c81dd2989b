package dev.berth.protocol;

/** API groups, versions and kinds that Berth serves, spelled as Kueue and Kubernetes spell them. */
public final class KueueApi {
    private KueueApi() {}

    public static final String GROUP = "kueue.x-k8s.io";
    public static final String V1BETA2 = "v1beta2";
    public static final String V1BETA1 = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + V1BETA2;

    public static final String RESOURCE_FLAVOR = "ResourceFlavor";
    public static final String CLUSTER_QUEUE = "ClusterQueue";
    public static final String COHORT = "Cohort";
    public static final String LOCAL_QUEUE = "LocalQueue";
    public static final String WORKLOAD = "Workload";
    public static final String WORKLOAD_PRIORITY_CLASS = "WorkloadPriorityClass";
    public static final String ADMISSION_CHECK = "AdmissionCheck";

    public static final String BATCH_GROUP = "batch";
    public static final String JOB = "Job";
    public static final String JOBSET_GROUP = "jobset.x-k8s.io";
    public static final String JOBSET_VERSION = "v1alpha2";
    public static final String JOBSET = "JobSet";
    public static final String SCHEDULING_GROUP = "scheduling.k8s.io";
    public static final String PRIORITY_CLASS = "PriorityClass";
    public static final String NAMESPACE = "Namespace";
    public static final String POD = "Pod";
    public static final String MULTIKUEUE_CLUSTER = "MultiKueueCluster";
    public static final String MULTIKUEUE_CONFIG = "MultiKueueConfig";
    /** The controllerName of AdmissionChecks that MultiKueue (here: Berth's dispatcher) decides. */
    public static final String MULTIKUEUE_CONTROLLER = "kueue.x-k8s.io/multikueue";
    public static final String PROVISIONING_REQUEST_CONFIG = "ProvisioningRequestConfig";
    /** The controllerName of AdmissionChecks decided by a ProvisioningRequest (here: through a worker's agent). */
    public static final String PROVISIONING_REQUEST_CONTROLLER = "kueue.x-k8s.io/provisioning-request";
    /** Kueue's finalizer on ResourceFlavors, ClusterQueues and AdmissionChecks: deletion waits while they are in use. */
    public static final String RESOURCE_IN_USE_FINALIZER = "kueue.x-k8s.io/resource-in-use";
    /** The scheduling gate Kueue's pod webhook puts on the pods it manages until they are admitted. */
    public static final String ADMISSION_GATE = "kueue.x-k8s.io/admission";
    /** Where Kueue reads MultiKueue kubeconfig Secrets from. */
    public static final String CONFIG_NAMESPACE = "kueue-system";
    /** The key of a MultiKueue kubeconfig Secret. */
    public static final String KUBECONFIG_KEY = "kubeconfig";
    public static final String SECRET = "Secret";
}
