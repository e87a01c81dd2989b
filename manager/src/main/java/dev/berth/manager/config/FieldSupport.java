package dev.berth.manager.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Berth does with each field of a Kueue Configuration: {@link Support#HONOURED} (acted on, maybe
 * mapped onto a Berth setting) or {@link Support#WARNED} (not used by Berth, with the reason). Keys are field paths without list
 * indices; a key also covers the fields under it. docs/operations.md lists the same table.
 */
public final class FieldSupport {
    public enum Support { HONOURED, WARNED }

    public record Entry(Support support, String note) {}

    private static final Map<String, Entry> TABLE = new LinkedHashMap<>();

    static {
        honoured("apiVersion", "config.kueue.x-k8s.io/v1beta2, or v1beta1");
        honoured("kind", "Configuration");
        honoured("fairSharing.enable", "fair sharing on (--fair-sharing); in v1beta2 the section's presence enables it");
        honoured("fairSharing.preemptionStrategies", "the fair-sharing preemption strategies, in order");
        honoured("objectRetentionPolicies.workloads.afterFinished", "finished Workloads are deleted after this (--retain-finished)");
        honoured("objectRetentionPolicies.workloads.afterDeactivatedByKueue",
                "Workloads Kueue's rules deactivated (Evicted reason DeactivatedDueTo...) are deleted after this");
        honoured("multiKueue.workerLostTimeout", "failover: how long a lost worker cluster keeps its workloads (--worker-lost-timeout)");
        honoured("multiKueue.origin", "the manager id written on worker copies, label berth.dev/origin (--manager-id)");
        honoured("multiKueue.dispatcherName",
                "the strategy of MultiKueueConfigs without the berth.dev/dispatch-strategy annotation: AllAtOnce or Incremental;"
                        + " an external dispatcher's name is warned about and Berth's Default placement is used");
        honoured("integrations.frameworks", "only the listed kinds get Workloads; Berth serves batch/job, jobset.x-k8s.io/jobset, kubeflow.org/pytorchjob, kubeflow.org/mpijob"
                + ", ray.io/rayjob, ray.io/raycluster, trainer.kubeflow.org/trainjob, deployment, statefulset, leaderworkerset.x-k8s.io/leaderworkerset"
                + ", workload.codeflare.dev/appwrapper"
                + " and pod, and warns about every other listed framework");
        honoured("namespace", "Kueue's own namespace: the default managedJobsNamespaceSelector leaves it (and kube-system) alone");
        honoured("manageJobsWithoutQueueName", "a Job, JobSet or Pod without the queue-name label is suspended and given a Workload");
        honoured("managedJobsNamespaceSelector", "where manageJobsWithoutQueueName and LocalQueue defaulting apply");
        honoured("waitForPodsReady", "timeout, blockAdmission, recoveryTimeout and requeuingStrategy, with PodsReady reported by the"
                + " worker agent (--wait-for-pods-ready overrides the section)");
        honoured("admissionFairSharing", "usage-based admission fair sharing in ClusterQueues with admissionScope"
                + " UsageBasedAdmissionFairSharing");
        honoured("resources.excludeResourcePrefixes", "matching resources do not count against quota; the pod template keeps them");
        honoured("resources.transformations", "input resources count as their outputs (Retain or Replace, multiplyBy)");
        honoured("metrics.enableClusterQueueResources", "the per-flavor ClusterQueue resource gauges (Kueue's default: off)");
        honoured("metrics.localQueueMetrics", "the LocalQueue series");
        honoured("featureGates.LocalQueueMetrics", "the LocalQueue series");
        honoured("multiKueue.incrementalDispatcherConfig", "stepSize: how many clusters each 5-minute round of the Incremental"
                + " strategy adds (Kueue's default 3)");
        warned("multiKueue.gcInterval", "Berth removes stale copies from worker clusters on every poll (--poll-interval), not on a"
                + " separate garbage-collection timer");
        warned("multiKueue.externalFrameworks", "Berth dispatches only the job kinds it serves");
        warned("multiKueue.clusterProfile", "worker clusters are registered as MultiKueueCluster objects; ClusterProfile is not served");
        warned("integrations.externalFrameworks", "Berth serves no external job kinds");
        warned("integrations.labelKeysToCopy", "Workload labels are not copied from jobs");
        warned("integrations.podOptions", "v1beta1 pod options; Berth manages a Pod by its queue-name label");
        warned("queueVisibility", "v1beta1 queue visibility in ClusterQueue status; Berth serves the visibility API instead");
        warned("resources.quotaCheckStrategy", "Berth checks undeclared resources as Kueue's default does");
        warned("resources.deviceClassMappings", "Berth does not model dynamic resource allocation");
        warned("featureGates", "Berth has no Kueue feature gates; each rule it implements is always on");
        warned("internalCertManagement", "Berth serves no admission webhooks; TLS comes from the security flags");
        warned("webhook", "Berth serves no admission webhooks");
        warned("leaderElection", "replicas elect a leader through their own cluster membership (--cluster-members)");
        warned("health", "health endpoints are served on the API port");
        warned("metrics.bindAddress", "metrics are served on the API port at /metrics");
        warned("metrics.customLabels", "Berth's series carry Kueue's standard labels only");
        warned("pprofBindAddress", "a Go profiler; Berth runs on the JVM");
        warned("controller", "controller-runtime concurrency and cache settings; Berth's controllers run on one state thread");
        warned("tls", "TLS for the API comes from the security flags");
        warned("clientConnection", "Berth is its own API server and has no client rate limits towards one");
        warned("visibilityServer", "the visibility API is served on the API port");
    }

    private FieldSupport() {}

    private static void honoured(String path, String note) {
        TABLE.put(path, new Entry(Support.HONOURED, note));
    }

    private static void warned(String path, String reason) {
        TABLE.put(path, new Entry(Support.WARNED, reason));
    }

    /** The entry for a field path (list indices and map keys below an entry are covered by it); null if none. */
    public static Entry of(String path) {
        String key = path.replaceAll("\\[\\d+]", "");
        while (true) {
            Entry entry = TABLE.get(key);
            if (entry != null) return entry;
            int dot = key.lastIndexOf('.');
            if (dot < 0) return null;
            key = key.substring(0, dot);
        }
    }

    /** The whole table, in the order docs/operations.md lists it. */
    public static Map<String, Entry> table() {
        return java.util.Collections.unmodifiableMap(TABLE);
    }
}
