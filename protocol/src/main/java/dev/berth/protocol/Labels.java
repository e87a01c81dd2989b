package dev.berth.protocol;

/** Label keys read or written by Berth. Kueue's own keys keep Kueue's spelling. */
public final class Labels {
    private Labels() {}

    /** The LocalQueue a job is submitted to. */
    public static final String QUEUE_NAME = "kueue.x-k8s.io/queue-name";
    /** A Job label Kueue copies into its Workload's spec.maximumExecutionTimeSeconds. */
    public static final String MAX_EXEC_TIME_SECONDS = "kueue.x-k8s.io/max-exec-time-seconds";
    /** Kueue's label on the pods it manages (its pod webhook sets it). */
    public static final String MANAGED = "kueue.x-k8s.io/managed";
    /** The WorkloadPriorityClass of a job. */
    public static final String PRIORITY_CLASS = "kueue.x-k8s.io/priority-class";
    /** Groups plain pods into one workload. */
    public static final String POD_GROUP_NAME = "kueue.x-k8s.io/pod-group-name";
    /** Set on every object Berth creates, naming the manager that owns it. */
    public static final String ORIGIN = "berth.dev/origin";
    /** The dispatch attempt an object on a worker cluster belongs to; unique per dispatch. */
    public static final String ATTEMPT_ID = "berth.dev/attempt-id";
    /** The namespace/name of the manager's Workload an object on a worker cluster stands for. */
    public static final String WORKLOAD_NAME = "berth.dev/workload";
    /** Set by the agent on every object it creates for an attempt: the RemoteWorkload's name. */
    public static final String REMOTE_WORKLOAD = "berth.dev/remote-workload";
    /** NVIDIA GPU Operator's product label on GPU nodes. */
    public static final String GPU_PRODUCT = "nvidia.com/gpu.product";
    /** The standard name label that every namespace carries. */
    public static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";
}
