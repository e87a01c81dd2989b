package dev.berth.manager.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Kueue {@code config.kueue.x-k8s.io/v1beta2} (or v1beta1) Configuration, typed, with Kueue's
 * defaults applied (apis/config/v1beta2/defaults.go). Built by {@link KueueConfigurationParser} from a
 * map, so tests need no files. {@link #fieldsSet()} holds the path of every field the file itself set;
 * {@link FieldSupport} says which of them Berth acts on. Nothing here is read from the environment.
 */
public record KueueConfiguration(String apiVersion,
                                 String namespace,
                                 boolean manageJobsWithoutQueueName,
                                 Map<String, Object> managedJobsNamespaceSelector,
                                 WaitForPodsReady waitForPodsReady,
                                 Integrations integrations,
                                 QueueVisibility queueVisibility,
                                 MultiKueue multiKueue,
                                 FairSharing fairSharing,
                                 AdmissionFairSharing admissionFairSharing,
                                 Resources resources,
                                 ObjectRetentionPolicies objectRetentionPolicies,
                                 Map<String, Boolean> featureGates,
                                 Metrics metrics,
                                 ControllerManager controllerManager,
                                 InternalCertManagement internalCertManagement,
                                 ClientConnection clientConnection,
                                 VisibilityServer visibilityServer,
                                 Set<String> fieldsSet) {
    public static final String V1BETA2 = "config.kueue.x-k8s.io/v1beta2";
    public static final String V1BETA1 = "config.kueue.x-k8s.io/v1beta1";

    /** Whether the file itself set this field (a path such as multiKueue.origin). */
    public boolean isSet(String path) {
        return fieldsSet.contains(path);
    }

    /** enabled: the section is present (v1beta2) or enable: true (v1beta1). Durations never null. */
    public record WaitForPodsReady(boolean enabled, Duration timeout, boolean blockAdmission, Duration recoveryTimeout,
                                   RequeuingStrategy requeuingStrategy) {}

    /** timestamp is Eviction or Creation; backoffLimitCount null means requeue forever. */
    public record RequeuingStrategy(String timestamp, Integer backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds) {}

    /** frameworks: Kueue's names (batch/job, jobset.x-k8s.io/jobset, pod, ...); defaults to batch/job. */
    public record Integrations(List<String> frameworks, List<String> externalFrameworks, List<String> labelKeysToCopy,
                               Map<String, Object> podOptions) {}

    /** v1beta1 only (removed in v1beta2). Null when absent. */
    public record QueueVisibility(Integer clusterQueuesMaxCount, Integer updateIntervalSeconds) {}

    public record MultiKueue(Duration gcInterval, String origin, Duration workerLostTimeout, String dispatcherName,
                             List<String> externalFrameworks, Integer incrementalStepSize, Map<String, Object> clusterProfile) {
        public static final String ALL_AT_ONCE = "kueue.x-k8s.io/multikueue-dispatcher-all-at-once";
        public static final String INCREMENTAL = "kueue.x-k8s.io/multikueue-dispatcher-incremental";
    }

    /** preemptionStrategies: Kueue's wire names, in order. */
    public record FairSharing(boolean enabled, List<String> preemptionStrategies) {}

    /** Null when absent (admission fair sharing off). resourceWeights: resource name to weight. */
    public record AdmissionFairSharing(Duration usageHalfLifeTime, Duration usageSamplingInterval, Map<String, Double> resourceWeights) {}

    public record Resources(List<String> excludeResourcePrefixes, List<ResourceTransformation> transformations,
                            String quotaCheckStrategy, List<Map<String, Object>> deviceClassMappings) {
        public static final Resources NONE = new Resources(List.of(), List.of(), null, List.of());
    }

    /** strategy is Retain (the default) or Replace; outputs are quantities as written (5Gi, 4). */
    public record ResourceTransformation(String input, String strategy, String multiplyBy, Map<String, String> outputs) {}

    /** Null durations keep workloads forever (Kueue's default). */
    public record ObjectRetentionPolicies(Duration afterFinished, Duration afterDeactivatedByKueue) {}

    public record Metrics(String bindAddress, boolean enableClusterQueueResources, List<Map<String, Object>> customLabels,
                          boolean localQueueMetricsEnabled, Map<String, Object> localQueueSelector) {}

    /** controller-runtime's manager settings, kept only so they can be named in warnings. */
    public record ControllerManager(Integer webhookPort, String webhookHost, String webhookCertDir, Map<String, Object> leaderElection,
                                    String healthProbeBindAddress, String pprofBindAddress, Map<String, Object> groupKindConcurrency,
                                    Duration cacheSyncTimeout, Map<String, Object> tls) {}

    public record InternalCertManagement(boolean enable, String webhookServiceName, String webhookSecretName) {}

    public record ClientConnection(double qps, int burst) {}

    public record VisibilityServer(String bindAddress, int bindPort) {}
}
